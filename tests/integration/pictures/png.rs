//! Just enough of PNG to read a screenshot back: 8-bit RGB or RGBA, not interlaced (what
//! Chromium and rsvg-convert write), inflated with flate2 and unfiltered row by row.

use std::io::Read;

pub struct Image {
    pub width: usize,
    pub height: usize,
    /// RGB, row by row.
    pub pixels: Vec<[u8; 3]>,
}

impl Image {
    /// How many pixels are exactly `colour` (`#RRGGBB`).
    pub fn count(&self, colour: &str) -> usize {
        let hex = |i: usize| u8::from_str_radix(&colour[i..i + 2], 16).unwrap();
        let want = [hex(1), hex(3), hex(5)];
        self.pixels.iter().filter(|p| **p == want).count()
    }

    /// How many different colours the image has.
    pub fn distinct(&self) -> usize {
        let mut seen: Vec<[u8; 3]> = self.pixels.clone();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    }
}

pub fn read(bytes: &[u8]) -> Image {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (mut at, mut header, mut data) = (8, Vec::new(), Vec::new());
    while at + 8 <= bytes.len() {
        let length = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let body = &bytes[at + 8..at + 8 + length];
        match &bytes[at + 4..at + 8] {
            b"IHDR" => header = body.to_vec(),
            b"IDAT" => data.extend_from_slice(body),
            _ => {}
        }
        at += 12 + length;
    }
    let word = |i: usize| u32::from_be_bytes(header[i..i + 4].try_into().unwrap()) as usize;
    let (width, height) = (word(0), word(4));
    let channels = match (header[8], header[9], header[12]) {
        (8, 2, 0) => 3,
        (8, 6, 0) => 4,
        other => {
            panic!("a PNG this reader does not know (depth, colour type, interlace): {other:?}")
        }
    };
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&data[..])
        .read_to_end(&mut raw)
        .unwrap();
    let rows = unfilter(&raw, width * channels, height, channels);
    let pixels = rows.chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
    Image {
        width,
        height,
        pixels,
    }
}

/// The scanlines with PNG's five filters undone.
fn unfilter(raw: &[u8], stride: usize, height: usize, bpp: usize) -> Vec<u8> {
    let mut out = vec![0u8; stride * height];
    for y in 0..height {
        let filter = raw[y * (stride + 1)];
        let line = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= bpp {
                out[y * stride + x - bpp]
            } else {
                0
            };
            let b = if y > 0 { out[(y - 1) * stride + x] } else { 0 };
            let c = if x >= bpp && y > 0 {
                out[(y - 1) * stride + x - bpp]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => paeth(a, b, c),
                other => panic!("unknown PNG filter {other}"),
            };
            out[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    out
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}
