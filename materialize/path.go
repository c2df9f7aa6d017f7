package materialize

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/resolve"
	"golang.org/x/text/unicode/norm"
)

// maxName bounds the bytes of one file or directory name: ext4 and most
// file systems allow 255, NTFS 255 UTF-16 units; 200 leaves room for the
// "~N" a collision adds and for the writer's temporary names.
const maxName = 200

// A place is where a captured URL goes in the tree: directories under
// DIR, then a file name, as the URL asks for them; the names are made
// unique (case and file/directory clashes) by layout.
type place struct {
	dirs []string
	name string
	ext  string // the extension name ends with ("" if none), kept when the name changes
}

// placeOf returns the place the URL u, captured with Content-Type ctype,
// asks for: HOST[+PORT]/decoded path segments, the query in the file name
// after ";", "index" for a directory URL, and an extension a browser
// honours for ctype when the name has none (wget's --adjust-extension).
// Every name is made portable (see portable) and at most maxName bytes.
func placeOf(u *resolve.WebURL, ctype string) place {
	var p place
	var segs []string
	switch u.Scheme() {
	case "http", "https":
		host := u.Hostname()
		if port := u.Port(); port != "" {
			host += "+" + port
		}
		p.dirs = append(p.dirs, portable(host, false))
		segs = strings.Split(strings.TrimPrefix(u.Pathname(), "/"), "/")
	case "thismessage":
		// MHTML parts without an absolute Content-Location (RFC 2557
		// §5(e)), under the number of their archive (see partURL).
		p.dirs = append(p.dirs, "_thismessage")
		segs = strings.Split(strings.TrimPrefix(u.Pathname(), "/"), "/")
	default:
		// Parts named only by Content-ID, and other schemes: one
		// directory per scheme, the rest of the URL as the name.
		p.dirs = append(p.dirs, "_"+portable(u.Scheme(), false))
		segs = []string{u.Pathname()}
	}
	for _, s := range segs[:len(segs)-1] {
		if s == "" {
			s = "_" // "a//b": a directory cannot have an empty name
		}
		p.dirs = append(p.dirs, portable(decode(s), false))
	}
	name := segs[len(segs)-1]
	if name == "" {
		name = "index"
	} else {
		name = portable(decode(name), false)
	}
	if q := u.Search(); q != "" {
		name += ";" + portable(q[1:], true)
	}
	ext := path.Ext(name)
	if want := extensions(ctype); len(want) > 0 && !slices.Contains(want, strings.ToLower(ext)) {
		ext = want[0]
		name += ext
	} else if len(want) == 0 && (strings.Contains(ext, ";") || len(ext) > 10) {
		ext = "" // not an extension: a query or a long dotted name
	}
	p.ext = ext
	p.name = shorten(reserved(name), ext)
	for i, d := range p.dirs {
		p.dirs[i] = shorten(reserved(d), "")
	}
	return p
}

// decode percent-decodes a path segment; "%2F" becomes "/", which
// portable escapes again, so it never splits a segment.
func decode(s string) string {
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}

// portable escapes, as %XX, the bytes a name cannot hold on one of the
// common file systems or that would make the mapping ambiguous: "/", "\",
// NUL and the control characters, the characters Windows forbids
// (< > : " | ? *), "%" itself in a decoded path segment, ";" (which
// starts the query in a name), bytes that are not UTF-8, and a trailing
// dot or space (which Windows drops). "." and ".." are escaped whole.
// query says s is a query, which is kept in its percent-encoded form.
func portable(s string, query bool) string {
	if s == "." || s == ".." {
		return strings.Repeat("%2E", len(s))
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case r == utf8.RuneError && n <= 1,
			c < 0x20, c == 0x7f, strings.IndexByte(`/\<>:"|?*`, c) >= 0,
			c == '%' && !query, c == ';' && !query,
			(c == '.' || c == ' ') && i == len(s)-1:
			b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
			i++
			continue
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// windowsReserved are the device names Windows reserves in every
// directory, with or without an extension ("Naming Files, Paths, and
// Namespaces").
var windowsReserved = func() map[string]bool {
	m := map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}
	for i := 1; i <= 9; i++ {
		m["COM"+strconv.Itoa(i)] = true
		m["LPT"+strconv.Itoa(i)] = true
	}
	return m
}()

// reserved appends "_" to a name whose stem (before the first dot, trailing
// spaces ignored) is a Windows device name: "con.html" → "con_.html".
func reserved(name string) string {
	stem, rest, _ := strings.Cut(name, ".")
	if windowsReserved[strings.ToUpper(strings.TrimRight(stem, " "))] {
		if rest != "" || strings.Contains(name, ".") {
			return stem + "_." + rest
		}
		return stem + "_"
	}
	return name
}

// shorten cuts a name over maxName bytes and keeps it unique with a hash
// of the whole name: prefix, "~", 12 hex digits of SHA-256, then ext.
func shorten(name, ext string) string {
	if len(name) <= maxName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	tail := "~" + hex.EncodeToString(sum[:6]) + ext
	if len(tail) > maxName/2 {
		tail = "~" + hex.EncodeToString(sum[:6])
	}
	cut := maxName - len(tail)
	// Do not split a character or a %XX escape.
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(name[max(0, cut-2):cut], '%'); i >= 0 {
		cut = max(0, cut-2) + i
	}
	return name[:cut] + tail
}

// fold is the key under which two names clash on a case-insensitive or
// normalizing file system (APFS, NTFS): NFC, then lower case.
func fold(name string) string { return strings.ToLower(norm.NFC.String(name)) }

// withSuffix inserts "~n" before ext: "a.png" → "a~1.png".
func withSuffix(name, ext string, n int) string {
	if ext != "" && strings.HasSuffix(name, ext) && len(name) > len(ext) {
		return name[:len(name)-len(ext)] + "~" + strconv.Itoa(n) + ext
	}
	return name + "~" + strconv.Itoa(n)
}

// typeExtensions maps media types to the extensions browsers and static
// hosts type them by (the first is the one added). Chromium decides the
// type of a file: URL from its extension (net/base/mime_util.cc).
var typeExtensions = map[string][]string{
	"text/html":                 {".html", ".htm", ".shtml"},
	"application/xhtml+xml":     {".xhtml", ".xht", ".xhtm"},
	"text/css":                  {".css"},
	"text/javascript":           {".js", ".mjs"},
	"application/javascript":    {".js", ".mjs"},
	"application/x-javascript":  {".js", ".mjs"},
	"application/json":          {".json"},
	"application/manifest+json": {".webmanifest", ".json"},
	"application/ld+json":       {".jsonld", ".json"},
	"text/plain":                {".txt", ".text"},
	"text/xml":                  {".xml"},
	"application/xml":           {".xml"},
	"application/rss+xml":       {".rss", ".xml"},
	"application/atom+xml":      {".atom", ".xml"},
	"image/svg+xml":             {".svg", ".svgz"},
	"image/png":                 {".png"},
	"image/jpeg":                {".jpg", ".jpeg", ".jpe", ".jfif", ".pjpeg", ".pjp"},
	"image/gif":                 {".gif"},
	"image/webp":                {".webp"},
	"image/avif":                {".avif"},
	"image/bmp":                 {".bmp"},
	"image/x-icon":              {".ico"},
	"image/vnd.microsoft.icon":  {".ico"},
	"font/woff":                 {".woff"},
	"font/woff2":                {".woff2"},
	"font/ttf":                  {".ttf"},
	"font/otf":                  {".otf"},
	"application/font-woff":     {".woff"},
	"application/pdf":           {".pdf"},
	"video/mp4":                 {".mp4", ".m4v"},
	"video/webm":                {".webm"},
	"audio/mpeg":                {".mp3"},
	"audio/ogg":                 {".ogg", ".oga"},
	"application/wasm":          {".wasm"},
}

// extensions returns the extensions for the media type of a Content-Type
// value, or nil when the type is unknown (the URL's own name is kept).
func extensions(ctype string) []string {
	mt, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ctype, ";", 2)[0]))
	}
	return typeExtensions[mt]
}
