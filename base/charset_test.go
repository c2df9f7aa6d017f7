package base

import (
	"strings"
	"testing"
)

// TestSheetEncoding: CSS Syntax Level 3 §3.2 "The input byte stream" /
// "determine the fallback encoding", after the Encoding Standard's BOM
// sniff that "decode" runs first: BOM, then the protocol's charset
// (step 1), then @charset exactly as the spec spells it, whose UTF-16
// labels mean UTF-8 (step 2), then the environment encoding of the
// referring document (step 3), then UTF-8 (step 4). Each row names the
// layer that decided.
func TestSheetEncoding(t *testing.T) {
	cases := []struct {
		name, head, contentType, env string
		want, source                 string
	}{
		{"§3.2 step 4: nothing", `a{}`, "", "", "utf-8", ByDefault},
		{"§3.2 step 1: protocol", `a{}`, "text/css; charset=koi8-r", "", "koi8-r", ByContentType},
		{"§3.2 step 1 before step 2", `@charset "koi8-r";`, "text/css; charset=iso-8859-2", "", "iso-8859-2", ByContentType},
		{"§3.2 step 1: unknown label skipped", `@charset "koi8-r";`, "text/css; charset=nonsense", "", "koi8-r", ByCharsetRule},
		{"§3.2 step 2: @charset", `@charset "koi8-r"; a{}`, "", "", "koi8-r", ByCharsetRule},
		{"§3.2 step 2: a label, not a name", `@charset "latin1";`, "text/css", "", "windows-1252", ByCharsetRule},
		// The spec's own note: "@charset "utf-16be";" in an ASCII
		// sheet is UTF-8.
		{"§3.2 step 2: utf-16be means utf-8", `@charset "utf-16be";`, "", "", "utf-8", ByCharsetRule},
		{"§3.2 step 2: utf-16le means utf-8", `@charset "utf-16le";`, "", "", "utf-8", ByCharsetRule},
		{"§3.2 step 2: unknown label", `@charset "nonsense";`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: single quotes are not the rule", `@charset 'koi8-r';`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: two spaces are not the rule", `@charset  "koi8-r";`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: upper case is not the rule", `@CHARSET "koi8-r";`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: not first", ` @charset "koi8-r";`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: unterminated", `@charset "koi8-r"`, "", "", "utf-8", ByDefault},
		{"§3.2 step 2: past 1024 bytes", `@charset "` + strings.Repeat("k", 1020) + `";`, "", "", "utf-8", ByDefault},
		{"BOM sniff: utf-8 before protocol", "\xef\xbb\xbfa{}", "text/css; charset=koi8-r", "", "utf-8", ByBOM},
		{"BOM sniff: utf-16le", "\xff\xfea\x00", "text/css; charset=koi8-r", "", "utf-16le", ByBOM},
		{"BOM sniff: utf-16be", "\xfe\xff\x00a", "", "", "utf-16be", ByBOM},
		{"BOM sniff: before @charset", "\xef\xbb\xbf@charset \"koi8-r\";", "", "", "utf-8", ByBOM},
		{"§3.2 step 3: environment", `a{}`, "", "windows-1251", "windows-1251", ByEnvironment},
		{"§3.2 step 3: environment label", `a{}`, "", "sjis", "shift_jis", ByEnvironment},
		{"§3.2 step 2 before step 3", `@charset "koi8-r";`, "", "windows-1251", "koi8-r", ByCharsetRule},
		{"§3.2 step 1 before step 3", `a{}`, "text/css; charset=iso-8859-2", "windows-1251", "iso-8859-2", ByContentType},
		{"BOM before step 3", "\xef\xbb\xbfa{}", "", "windows-1251", "utf-8", ByBOM},
		{"§3.2 step 3: utf-16 means utf-8", `a{}`, "", "utf-16le", "utf-8", ByEnvironment},
		{"§3.2 step 3: utf-8 is the default", `a{}`, "", "utf-8", "utf-8", ByDefault},
		{"§3.2 step 3: unknown label", `a{}`, "", "nonsense", "utf-8", ByDefault},
	}
	for _, c := range cases {
		enc, got, source := SheetEncoding([]byte(c.head), c.contentType, c.env)
		if got != c.want || source != c.source {
			t.Errorf("%s: %q %q, want %q %q", c.name, got, source, c.want, c.source)
		}
		if (enc == nil) != (got == "utf-8") {
			t.Errorf("%s: encoding %v for %q", c.name, enc, got)
		}
	}
}

// TestXMLEncoding: XML 1.0 (Fifth Edition) §4.3.3 "Character Encoding in
// Entities" and Appendix F "Autodetection of Character Encodings", with
// RFC 7303's charset parameter: a BOM (Appendix F.1 "with a Byte Order
// Mark"), then the Content-Type charset (RFC 7303 §3.2), then the first
// character's bytes (F.1 "without a Byte Order Mark"), then the
// encoding declaration, then UTF-8.
func TestXMLEncoding(t *testing.T) {
	cases := []struct {
		name, head, contentType string
		want, source            string
	}{
		{"§4.3.3: no declaration, no BOM: UTF-8", `<svg xmlns="http://www.w3.org/2000/svg"/>`, "", "utf-8", ByDefault},
		{"§4.3.3: declaration without encoding", `<?xml version="1.0"?><a/>`, "", "utf-8", ByDefault},
		// §4.3.3's examples of encoding declarations.
		{"§4.3.3 example: encoding='UTF-8'", `<?xml encoding='UTF-8'?>`, "", "utf-8", ByDeclaration},
		{"§4.3.3 example: encoding='EUC-JP'", `<?xml encoding='EUC-JP'?>`, "", "euc-jp", ByDeclaration},
		{"§2.8 XMLDecl", `<?xml version="1.0" encoding="ISO-8859-2" standalone="yes"?>`, "", "iso-8859-2", ByDeclaration},
		{"§4.3.3 Eq: white space around =", "<?xml version='1.0' encoding \r\n= \t\"koi8-r\"?>", "", "koi8-r", ByDeclaration},
		{"§4.3.3: labels as browsers read them", `<?xml version="1.0" encoding="latin1"?>`, "", "windows-1252", ByDeclaration},
		{"§4.3.3: unknown label", `<?xml version="1.0" encoding="x-nonsense"?>`, "", "utf-8", ByDefault},
		{"§4.3.3: UTF-16 declared in ASCII bytes", `<?xml version="1.0" encoding="UTF-16"?>`, "", "utf-8", ByDeclaration},
		{"§2.8: <?xml must be first", ` <?xml version="1.0" encoding="koi8-r"?>`, "", "utf-8", ByDefault},
		{"§2.8: <?xml-stylesheet is no declaration", `<?xml-stylesheet encoding="koi8-r"?>`, "", "utf-8", ByDefault},
		{"§2.8: unterminated declaration", `<?xml version="1.0" encoding="koi8-r"`, "", "utf-8", ByDefault},
		{"§2.8: not a pseudo-attribute", `<?xml version="1.0" xencoding="koi8-r"?>`, "", "utf-8", ByDefault},
		// RFC 7303 §3.2: the charset parameter is authoritative.
		{"RFC 7303 §3.2: charset before declaration", `<?xml version="1.0" encoding="koi8-r"?>`, "application/xml; charset=iso-8859-5", "iso-8859-5", ByContentType},
		{"RFC 7303 §3.2: unknown charset skipped", `<?xml version="1.0" encoding="koi8-r"?>`, "image/svg+xml; charset=nonsense", "koi8-r", ByDeclaration},
		{"RFC 7303: no charset", `<?xml version="1.0" encoding="koi8-r"?>`, "image/svg+xml", "koi8-r", ByDeclaration},
		// Appendix F.1, with a BOM (before the MIME layer, RFC 7303 §3.3).
		{"F.1 BOM: UTF-8", "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"koi8-r\"?>", "", "utf-8", ByBOM},
		{"F.1 BOM: UTF-16BE FE FF", "\xfe\xff\x00<\x00?", "application/xml; charset=koi8-r", "utf-16be", ByBOM},
		{"F.1 BOM: UTF-16LE FF FE", "\xff\xfe<\x00?\x00", "", "utf-16le", ByBOM},
		{"F.1 BOM: UCS-4BE 00 00 FE FF", "\x00\x00\xfe\xff\x00\x00\x00<", "", "utf-32be", ByBOM},
		{"F.1 BOM: UCS-4LE FF FE 00 00", "\xff\xfe\x00\x00<\x00\x00\x00", "", "utf-32le", ByBOM},
		// Appendix F.1, without a BOM: the bytes of the first '<'.
		{"F.1 no BOM: 00 00 00 3C UCS-4BE", "\x00\x00\x00<\x00\x00\x00?", "", "utf-32be", ByFirstBytes},
		{"F.1 no BOM: 3C 00 00 00 UCS-4LE", "<\x00\x00\x00?\x00\x00\x00", "", "utf-32le", ByFirstBytes},
		{"F.1 no BOM: 00 3C 00 3F UTF-16BE", "\x00<\x00?\x00x\x00m", "", "utf-16be", ByFirstBytes},
		{"F.1 no BOM: 3C 00 3F 00 UTF-16LE", "<\x00?\x00x\x00m\x00", "", "utf-16le", ByFirstBytes},
		{"F.1 no BOM: 00 3C, no declaration", "\x00<\x00s\x00v\x00g", "", "utf-16be", ByFirstBytes},
		{"F.1 no BOM: 4C 6F A7 94 EBCDIC", "\x4c\x6f\xa7\x94", "", "ebcdic", ByFirstBytes},
		{"F.1 no BOM: 3C 3F 78 6D reads the declaration", `<?xml version="1.0" encoding="Shift_JIS"?>`, "", "shift_jis", ByDeclaration},
		{"RFC 7303 §3.2: charset before the first bytes", "<\x00?\x00", "text/xml; charset=utf-8", "utf-8", ByContentType},
	}
	for _, c := range cases {
		enc, got, source := XMLEncoding([]byte(c.head), c.contentType)
		if got != c.want || source != c.source {
			t.Errorf("%s: %q %q, want %q %q", c.name, got, source, c.want, c.source)
		}
		if (enc == nil) != (got == "utf-8" || got == "ebcdic") {
			t.Errorf("%s: encoding %v for %q", c.name, enc, got)
		}
	}
}

// FuzzEncodings: whatever the bytes, SheetEncoding and XMLEncoding decide
// without panicking, from the first 1024 bytes only (after the BOM and
// the first bytes, which lie within them), with a named layer, an
// encoding exactly when the name is not UTF-8 (or "ebcdic"), and a
// Content-Type charset that names an encoding deciding unless a BOM
// does.
func FuzzEncodings(f *testing.F) {
	for _, s := range []string{"", "a{}", `@charset "koi8-r";`, "\xef\xbb\xbf", "\xff\xfe<\x00", "\x00\x00\x00<", "<?xml version='1.0' encoding='euc-jp'?>", "\x4c\x6f\xa7\x94", `<?xml encoding="utf-16"?>`} {
		f.Add([]byte(s), "", "windows-1251")
		f.Add([]byte(s), "text/css; charset=iso-8859-2", "")
	}
	f.Fuzz(func(t *testing.T, head []byte, contentType, env string) {
		cut := head[:min(len(head), 1024)]
		layers := map[string]bool{ByBOM: true, ByContentType: true, ByCharsetRule: true, ByEnvironment: true, ByDeclaration: true, ByFirstBytes: true, ByDefault: true}
		e1, n1, s1 := SheetEncoding(head, contentType, env)
		_, n2, s2 := SheetEncoding(cut, contentType, env)
		e3, n3, s3 := XMLEncoding(head, contentType)
		_, n4, s4 := XMLEncoding(cut, contentType)
		if n1 != n2 || s1 != s2 || n3 != n4 || s3 != s4 {
			t.Fatalf("past 1024 bytes: css %q %q / %q %q, xml %q %q / %q %q", n1, s1, n2, s2, n3, s3, n4, s4)
		}
		if !layers[s1] || !layers[s3] || (e1 == nil) != (n1 == "utf-8") || (e3 == nil) != (n3 == "utf-8" || n3 == "ebcdic") {
			t.Fatalf("css %q %q %v, xml %q %q %v", n1, s1, e1, n3, s3, e3)
		}
		if cs := contentTypeCharset(contentType); cs != "" && bomEncoding(head) == "" && (n1 != cs || s1 != ByContentType) {
			t.Fatalf("Content-Type charset %q: css %q %q", cs, n1, s1)
		}
	})
}
