
set edit:completion:arg-completer[chain-metrics] = { |@words|
    var index = (count $words)
    set index = (- $index 1)

    put (env _CLAP_IFS="\n" _CLAP_COMPLETE_INDEX=(to-string $index) _CHAIN_METRICS_COMPLETE="elvish" chain-metrics -- $@words) | to-lines
}

