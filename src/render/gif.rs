//! An animated GIF of a game: one frame per picture, each rasterised to a width of
//! about a thousand pixels, flattened onto white and reduced to 256 colours
//! (NeuQuant, through the `gif` crate), shown [`FRAME_DELAY`] each, the last one
//! [`LAST_DELAY`], looping for ever.

use super::{raster_width, RasterError};

/// The width the frames are drawn at, in pixels.
pub const GIF_WIDTH: u32 = 1000;
/// The most pixels a frame has (1000 by 2000): a taller picture is drawn narrower, so
/// that a map whose positions reach far north and south is not a GIF of frames tens of
/// thousands of pixels tall (it took minutes).
pub const GIF_MAX_PIXELS: f32 = 2_000_000.0;
/// How long a frame is shown, in hundredths of a second; the last one longer.
pub const FRAME_DELAY: u16 = 150;
pub const LAST_DELAY: u16 = 400;
/// Colour quantisation: 1 (best, slowest) to 30; 10 is NeuQuant's usual choice.
const QUANT_SPEED: i32 = 10;

/// The GIF of the pictures `svgs` (in order), each fitted to `width` pixels, or fewer
/// where the first picture would pass [`GIF_MAX_PIXELS`]. Every frame has the first
/// one's size (a picture of another size is cut or padded with white at the bottom and
/// right).
pub fn gif(svgs: &[String], width: u32) -> Result<Vec<u8>, RasterError> {
    let encode = |e: gif::EncodingError| RasterError::Encode(e.to_string());
    let mut encoder: Option<gif::Encoder<Vec<u8>>> = None;
    let mut screen = (0u16, 0u16);
    let mut width = width;
    for (i, svg) in svgs.iter().enumerate() {
        let pixmap = if i == 0 {
            // The first picture sets the width: its tree is read once, for its size
            // and its frame.
            let tree = super::svg_tree(svg)?;
            let (w, h) = (tree.size().width().max(1.0), tree.size().height().max(1.0));
            let fits = (GIF_MAX_PIXELS * w / h).sqrt().floor();
            // A GIF is at most 65,535 pixels tall.
            let tall = (f32::from(u16::MAX) * w / h).floor();
            width = width.min(fits.min(tall).max(1.0) as u32);
            let (fw, fh, k) = super::fitted(&tree, Some(width));
            super::raster_tree(&tree, fw, fh, k)?
        } else {
            raster_width(svg, Some(width))?
        };
        let e = match encoder.as_mut() {
            Some(e) => e,
            None => {
                let (w, h) = (pixmap.width(), pixmap.height());
                let size = |v: u32| u16::try_from(v).map_err(|_| RasterError::Size(w, h));
                screen = (size(w)?, size(h)?);
                let mut e =
                    gif::Encoder::new(Vec::new(), screen.0, screen.1, &[]).map_err(encode)?;
                e.set_repeat(gif::Repeat::Infinite).map_err(encode)?;
                encoder.insert(e)
            }
        };
        let mut rgba = on_white(&pixmap, screen);
        let mut frame = gif::Frame::from_rgba_speed(screen.0, screen.1, &mut rgba, QUANT_SPEED);
        frame.delay = if i + 1 == svgs.len() {
            LAST_DELAY
        } else {
            FRAME_DELAY
        };
        e.write_frame(&frame).map_err(encode)?;
    }
    match encoder {
        Some(e) => e.into_inner().map_err(encode),
        None => Err(RasterError::Svg("no picture to animate".into())),
    }
}

/// The pixmap (premultiplied RGBA) laid over white, as plain RGBA of `screen`'s size.
fn on_white(pixmap: &super::RasterPixmap, (sw, sh): (u16, u16)) -> Vec<u8> {
    let (sw, sh) = (usize::from(sw), usize::from(sh));
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let mut rgba = vec![255u8; sw * sh * 4];
    let src = pixmap.data();
    for y in 0..sh.min(h) {
        for x in 0..sw.min(w) {
            let s = (y * w + x) * 4;
            let d = (y * sw + x) * 4;
            let a = src[s + 3];
            for c in 0..3 {
                // Premultiplied colour over white: c + (255 - a).
                rgba[d + c] = src[s + c].saturating_add(255 - a);
            }
        }
    }
    rgba
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_frame_per_picture_at_the_width_asked_looping_the_last_longer() {
        let pic = |fill: &str| {
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"200\">\
                 <rect width=\"400\" height=\"100\" fill=\"{fill}\"/></svg>"
            )
        };
        let svgs = vec![pic("#ff0000"), pic("#00ff00"), pic("#0000ff")];
        let bytes = gif(&svgs, 100).unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(&bytes[..]).unwrap();
        assert_eq!((d.width(), d.height()), (100, 50));
        let mut frames = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            // The top half is the picture's colour, the bottom half white.
            let top = &f.buffer[(10 * 100 + 50) * 4..(10 * 100 + 50) * 4 + 3];
            let bottom = &f.buffer[(40 * 100 + 50) * 4..(40 * 100 + 50) * 4 + 3];
            frames.push((f.delay, top.to_vec(), bottom.to_vec()));
        }
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[0].0, FRAME_DELAY);
        assert_eq!(frames[2].0, LAST_DELAY);
        let near = |a: &[u8], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) < 12);
        assert!(near(&frames[0].1, [255, 0, 0]), "{:?}", frames[0]);
        assert!(near(&frames[1].1, [0, 255, 0]), "{:?}", frames[1]);
        assert!(near(&frames[2].1, [0, 0, 255]), "{:?}", frames[2]);
        assert!(frames.iter().all(|f| near(&f.2, [255, 255, 255])));
        assert_eq!(d.repeat(), gif::Repeat::Infinite);
    }
}
