package base

import (
	"bytes"
	"mime"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// The layers that decide a document's encoding, as Encoding,
// SheetEncoding and XMLEncoding name them (Opened.CharsetSource).
const (
	ByBOM         = "byte order mark"      // Encoding Standard "BOM sniff"; XML 1.0 Appendix F
	ByContentType = "Content-Type"         // the charset parameter of the document's own type
	ByMeta        = "<meta>"               // HTML: the prescan (HTML §13.2.3.2)
	ByCharsetRule = "@charset"             // CSS: a @charset rule at the very start
	ByEnvironment = "environment"          // CSS: the referring document's encoding
	ByDeclaration = "encoding declaration" // XML: <?xml ... encoding="..."?> (§4.3.3)
	ByFirstBytes  = "first bytes"          // XML: Appendix F, the first character's bytes without a BOM
	ByDefault     = "default"              // nothing said: UTF-8 (HTML: see Encoding)
)

// SheetEncoding decides the encoding of a stylesheet whose first bytes are
// head, and says which layer decided, as CSS Syntax Level 3 §3.2 does
// ("determine the fallback encoding", after the Encoding Standard's BOM
// sniff that "decode" performs first):
//
//  1. a byte order mark (UTF-8, UTF-16BE, UTF-16LE);
//  2. the charset of contentType, the protocol's (the sheet's own
//     Content-Type), when it names an encoding;
//  3. a @charset rule at the very start of the first 1024 bytes, spelled
//     exactly `@charset "label";` (one space, double quotes), when its
//     label names an encoding; UTF-16 labels mean UTF-8, for bytes that
//     spell the rule in ASCII are not UTF-16;
//  4. env, the environment encoding (the referring document's), when it
//     names one (UTF-16 again means UTF-8);
//  5. UTF-8.
//
// Labels are the Encoding Standard's. enc is nil for UTF-8; name is the
// encoding's name ("utf-8", "koi8-r", "utf-16le"), source the layer
// (ByBOM, ByContentType, ByCharsetRule, ByEnvironment or ByDefault).
func SheetEncoding(head []byte, contentType, env string) (enc encoding.Encoding, name, source string) {
	if name := bomEncoding(head); name != "" {
		return encodingNamed(name), name, ByBOM
	}
	if name := contentTypeCharset(contentType); name != "" {
		return encodingNamed(name), name, ByContentType
	}
	const rule = `@charset "`
	head = head[:min(len(head), 1024)]
	if bytes.HasPrefix(head, []byte(rule)) {
		if n := bytes.Index(head[len(rule):], []byte(`";`)); n >= 0 {
			if _, name := charset.Lookup(string(head[len(rule) : len(rule)+n])); name != "" {
				name = asciiReadable(name)
				return encodingNamed(name), name, ByCharsetRule
			}
		}
	}
	if _, name := charset.Lookup(env); name != "" && name != "utf-8" {
		name = asciiReadable(name)
		return encodingNamed(name), name, ByEnvironment
	}
	return nil, "utf-8", ByDefault
}

// XMLEncoding decides the encoding of an XML document whose first bytes
// are head, and says which layer decided, as XML 1.0 (Fifth Edition)
// §4.3.3 and Appendix F, with RFC 7303 §3.2's charset parameter, do:
//
//  1. a byte order mark: UTF-8 (EF BB BF), UTF-16BE (FE FF), UTF-16LE
//     (FF FE), UTF-32BE (00 00 FE FF), UTF-32LE (FF FE 00 00); BOMs take
//     precedence over the MIME layer (RFC 7303 §3.3);
//  2. the charset of contentType, which RFC 7303 §3.2 makes
//     authoritative over the document's own declaration;
//  3. without a BOM, the first character '<' tells the byte width
//     (Appendix F): 00 00 00 3C UTF-32BE, 3C 00 00 00 UTF-32LE, 00 3C
//     UTF-16BE, 3C 00 UTF-16LE, 4C 6F A7 94 ("<?xm" in EBCDIC) "ebcdic";
//  4. in ASCII-readable bytes, the encoding declaration of the XML
//     declaration (<?xml version="1.0" encoding="label"?>), when its label
//     names an encoding; UTF-16 and UTF-32 labels mean UTF-8 there, for
//     bytes that spell the declaration in ASCII are neither;
//  5. UTF-8 (§4.3.3: an entity with no declaration and no BOM is UTF-8).
//
// Labels are read as the Encoding Standard reads them, as browsers do
// for XML documents. enc is nil for UTF-8 and for "ebcdic" (the page is
// named only by the declaration, which relurl does not read in EBCDIC);
// source is ByBOM, ByContentType, ByFirstBytes, ByDeclaration or
// ByDefault.
func XMLEncoding(head []byte, contentType string) (enc encoding.Encoding, name, source string) {
	switch {
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return encodingNamed("utf-32be"), "utf-32be", ByBOM
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return encodingNamed("utf-32le"), "utf-32le", ByBOM
	}
	if name := bomEncoding(head); name != "" {
		return encodingNamed(name), name, ByBOM
	}
	if name := contentTypeCharset(contentType); name != "" {
		return encodingNamed(name), name, ByContentType
	}
	switch {
	case bytes.HasPrefix(head, []byte{0, 0, 0, '<'}):
		return encodingNamed("utf-32be"), "utf-32be", ByFirstBytes
	case bytes.HasPrefix(head, []byte{'<', 0, 0, 0}):
		return encodingNamed("utf-32le"), "utf-32le", ByFirstBytes
	case bytes.HasPrefix(head, []byte{0, '<'}):
		return encodingNamed("utf-16be"), "utf-16be", ByFirstBytes
	case bytes.HasPrefix(head, []byte{'<', 0}):
		return encodingNamed("utf-16le"), "utf-16le", ByFirstBytes
	case bytes.HasPrefix(head, []byte{0x4C, 0x6F, 0xA7, 0x94}):
		return nil, "ebcdic", ByFirstBytes
	}
	if label, ok := declaredEncoding(head); ok {
		if _, name := charset.Lookup(label); name != "" {
			name = asciiReadable(name)
			return encodingNamed(name), name, ByDeclaration
		}
	}
	return nil, "utf-8", ByDefault
}

// declaredEncoding returns the EncName of the XML declaration that starts
// head (XML 1.0 §2.8 XMLDecl, §4.3.3 EncodingDecl): `<?xml`, white space,
// the version, then ` encoding = "label"` in either quotes.
func declaredEncoding(head []byte) (string, bool) {
	head = head[:min(len(head), 1024)]
	if !bytes.HasPrefix(head, []byte("<?xml")) || len(head) < 6 || !isXMLSpace(head[5]) {
		return "", false
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return "", false
	}
	decl := head[5:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 || i == 0 || !isXMLSpace(decl[i-1]) {
		return "", false
	}
	rest := bytes.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return "", false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return "", false
	}
	j := bytes.IndexByte(rest[1:], rest[0])
	if j < 0 {
		return "", false
	}
	return string(rest[1 : 1+j]), true
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// bomEncoding returns the encoding a byte order mark names (Encoding
// Standard "BOM sniff"), or "".
func bomEncoding(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return "utf-8"
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return "utf-16be"
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return "utf-16le"
	}
	return ""
}

// contentTypeCharset returns the name of the encoding contentType's
// charset parameter names, or "".
func contentTypeCharset(contentType string) string {
	if _, params, err := mime.ParseMediaType(contentType); err == nil && params["charset"] != "" {
		_, name := charset.Lookup(params["charset"])
		return name
	}
	return ""
}

// asciiReadable is the encoding a declaration written in ASCII-readable
// bytes names: the UTF-16 and UTF-32 ones cannot be what such bytes are
// in, and mean UTF-8 (CSS Syntax §3.2 for @charset; the same for XML).
func asciiReadable(name string) string {
	switch name {
	case "utf-16be", "utf-16le", "utf-32be", "utf-32le":
		return "utf-8"
	}
	return name
}

// encodingNamed returns the encoding called name (the Encoding Standard's
// names, and "utf-32be"/"utf-32le"), nil for UTF-8 and unknown names.
func encodingNamed(name string) encoding.Encoding {
	switch name {
	case "utf-8":
		return nil
	case "utf-16be":
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	case "utf-16le":
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case "utf-32be":
		return utf32.UTF32(utf32.BigEndian, utf32.UseBOM)
	case "utf-32le":
		return utf32.UTF32(utf32.LittleEndian, utf32.UseBOM)
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		return nil
	}
	return e
}
