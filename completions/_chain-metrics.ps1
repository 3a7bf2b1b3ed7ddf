
Register-ArgumentCompleter -Native -CommandName chain-metrics -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $prev = $env:_CHAIN_METRICS_COMPLETE;
    $env:_CHAIN_METRICS_COMPLETE = "powershell";

    $args = $commandAst.Extent.Text
    $args = $args.Substring(0, [math]::Min($cursorPosition, $args.Length));
    if ($wordToComplete -eq "") {
        $args += " ''";
    }

    $results = Invoke-Expression @"
& chain-metrics -- $args
"@;
    if ($null -eq $prev) {
        Remove-Item Env:\_CHAIN_METRICS_COMPLETE;
    } else {
        $env:_CHAIN_METRICS_COMPLETE = $prev;
    }
    $results | ForEach-Object {
        $split = $_.Split("`t");
        $cmd = $split[0];

        if ($split.Length -eq 2) {
            $help = $split[1];
        }
        else {
            $help = $split[0];
        }

        [System.Management.Automation.CompletionResult]::new($cmd, $cmd, 'ParameterValue', $help)
    }
};
        
