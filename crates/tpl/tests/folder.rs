//! The PNG folder conversion: untouched folders rebuild byte for byte (lossy formats included),
//! edited PNGs are encoded in the image's format, resized ones relay the library out.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use gx::tex::Image;

type Files = Vec<(String, Vec<u8>)>;

fn rebuild(files: &Files) -> tpl::Tpl {
    tpl::folder::from_folder(|n| files.iter().find(|(f, _)| f == n).map(|(_, b)| b.clone()))
        .unwrap()
}

fn set(files: &mut Files, name: &str, bytes: Vec<u8>) {
    files.iter_mut().find(|(f, _)| f == name).unwrap().1 = bytes;
}

#[test]
fn untouched_folder_rebuilds_identically() {
    let lib = tpl::build::sample(); // RGB5A3, C8 (quantised), CMPR with mips: two lossy images
    let bytes = lib.write().unwrap();
    let files = tpl::folder::to_folder(&lib).unwrap();
    assert_eq!(files.len(), 1 + 2 * lib.images.len());
    assert_eq!(rebuild(&files).write().unwrap(), bytes);
}

#[test]
fn edited_png_is_encoded_in_place() {
    let lib = tpl::build::sample();
    let mut files = tpl::folder::to_folder(&lib).unwrap();
    // Image 2 (CMPR 32×32, 3 levels) painted red.
    let red = Image::filled(32, 32, [255, 0, 0, 255]).unwrap();
    set(&mut files, "2.png", gx::png::encode(&red).unwrap());
    let back = rebuild(&files);
    assert_eq!(back.images[0], lib.images[0]);
    assert_eq!(back.images[1], lib.images[1]);
    let e = &back.images[2];
    assert_eq!(e.header, lib.images[2].header); // same size: layout kept
    assert_ne!(e.data, lib.images[2].data);
    let levels = e.texture().unwrap().decode().unwrap();
    assert_eq!(levels.len(), 3);
    assert!(
        levels
            .iter()
            .all(|l| l.pixels().iter().all(|&p| p == [255, 0, 0, 255]))
    );
}

#[test]
fn resized_png_relays_out() {
    let lib = tpl::build::sample();
    let mut files = tpl::folder::to_folder(&lib).unwrap();
    let big = Image::test_pattern(40, 40, true).unwrap();
    set(&mut files, "0.png", gx::png::encode(&big).unwrap());
    let back = rebuild(&files);
    let bytes = back.write().unwrap();
    let again = tpl::Tpl::parse(&bytes).unwrap();
    assert_eq!(
        (again.images[0].header.width, again.images[0].header.height),
        (40, 40)
    );
    let img = again.images[0].texture().unwrap().decode_level(0).unwrap();
    assert!(gx::tex::psnr(&big, &img).unwrap() > 30.0);
    // The other images are unchanged in content.
    assert_eq!(again.images[1].data, lib.images[1].data);
    assert_eq!(again.images[2].data, lib.images[2].data);
    assert!(tpl::validate(&bytes).is_empty());
}

#[test]
fn missing_files_are_errors() {
    let files = tpl::folder::to_folder(&tpl::build::sample()).unwrap();
    let no_png = tpl::folder::from_folder(|n| {
        (n != "1.png")
            .then(|| files.iter().find(|(f, _)| f == n).map(|(_, b)| b.clone()))
            .flatten()
    });
    assert!(no_png.unwrap_err().to_string().contains("1.png"));
    assert!(tpl::folder::from_folder(|_| None).is_err());
}
