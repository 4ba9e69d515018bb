package face

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dobble-dev/dobble/symbols/art"
	"golang.org/x/image/draw"
)

// MaxImageSide is the longest side, in pixels, that a raster symbol keeps:
// larger images are reduced, which is still more than 300 dpi for the
// largest symbol of a 100 mm card.
const MaxImageSide = 800

// MaxImagePixels bounds the size of an image file's picture.
const MaxImagePixels = 50_000_000

// MaxImageFileSize bounds an image file, in bytes.
const MaxImageFileSize = 32 << 20

// ImageExtensions lists the file name extensions ReadImages takes.
var ImageExtensions = []string{".png", ".jpg", ".jpeg", ".svg"}

// Image returns the symbol for an image file's contents: PNG, JPEG or SVG,
// chosen by the file name's extension and checked against the contents.
// name is the file name, for the symbol's name and for messages; errors
// complete a sentence that starts with it.
func Image(name string, data []byte) (*Symbol, error) {
	ext := strings.ToLower(filepath.Ext(name))
	symName := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	switch ext {
	case ".svg":
		p, err := art.ParseSVG(data)
		if err != nil {
			return nil, err
		}
		return &Symbol{Name: symName, pic: p}, nil
	case ".png", ".jpg", ".jpeg":
	default:
		return nil, fmt.Errorf("is not a PNG, JPEG or SVG image (by its name); give pictures as .png, .jpg or .svg files")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cannot be read as an image (%v); it may be damaged or not really a %s file", err, strings.ToUpper(ext[1:]))
	}
	if want := map[string]string{".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg"}[ext]; format != want {
		return nil, fmt.Errorf("is named %s but holds a %s image; rename it", ext, strings.ToUpper(format))
	}
	if cfg.Width < 8 || cfg.Height < 8 {
		return nil, fmt.Errorf("is only %d×%d pixels; give a picture of at least 8×8", cfg.Width, cfg.Height)
	}
	if cfg.Width*cfg.Height > MaxImagePixels {
		return nil, fmt.Errorf("is %d×%d pixels; the most is %d megapixels", cfg.Width, cfg.Height, MaxImagePixels/1_000_000)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("cannot be read as an image (%v); it may be damaged", err)
	}
	img = reduce(img)
	var buf bytes.Buffer
	r := &raster{img: img}
	if format == "jpeg" {
		r.mime = "image/jpeg"
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	} else {
		r.mime = "image/png"
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot be re-encoded: %v", err)
	}
	r.data = buf.Bytes()
	return &Symbol{Name: symName, img: r}, nil
}

// reduce scales an image down so its longer side is at most MaxImageSide,
// and returns it as an *image.NRGBA.
func reduce(img image.Image) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if longest := max(w, h); longest > MaxImageSide {
		w = max(1, w*MaxImageSide/longest)
		h = max(1, h*MaxImageSide/longest)
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	}
	return dst
}

// ReadImages reads a folder of pictures, one symbol per file, in file name
// order: PNG, JPEG or SVG. Files whose names start with "." and
// sub-folders are skipped. A file that cannot be read or is not a
// supported image, an SVG with scripts or external references, or two
// files with the same contents are refused, naming the file.
func ReadImages(dir string) ([]*Symbol, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, &InputError{File: dir, Msg: "cannot be read: " + pathErr(err)}
	}
	if !info.IsDir() {
		return nil, &InputError{File: dir, Msg: "is not a folder; --images takes a folder with one picture file per symbol"}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &InputError{File: dir, Msg: "cannot be read: " + pathErr(err)}
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || e.IsDir() {
			continue
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil, &InputError{File: dir, Msg: "has no picture files; put one .png, .jpg or .svg file per symbol in it"}
	}
	seen := map[[32]byte]string{}
	out := make([]*Symbol, 0, len(names))
	for _, n := range names {
		path := filepath.Join(dir, n)
		fi, err := os.Stat(path)
		if err != nil {
			return nil, &InputError{File: path, Msg: "cannot be read: " + pathErr(err)}
		}
		if fi.Size() > MaxImageFileSize {
			return nil, &InputError{File: path, Msg: fmt.Sprintf("is larger than %d MB; give a smaller picture", MaxImageFileSize>>20)}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, &InputError{File: path, Msg: "cannot be read: " + pathErr(err)}
		}
		sum := sha256.Sum256(data)
		if first, dup := seen[sum]; dup {
			return nil, &InputError{File: path, Msg: fmt.Sprintf("is the same picture as %s; every symbol must be different", first)}
		}
		seen[sum] = n
		s, err := Image(n, data)
		if err != nil {
			return nil, &InputError{File: path, Msg: err.Error()}
		}
		out = append(out, s)
	}
	return out, nil
}
