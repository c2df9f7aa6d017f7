package jsmodule

import (
	"io"
	"strings"
	"testing"
)

func BenchmarkRewrite(b *testing.B) {
	chunk := "import a from './a.mjs';\nexport * from \"../b.mjs\";\nconst f = (x) => x / 2 + /re\"/.test(s) ? import(`./c.mjs`) : new URL('img.png', import.meta.url);\n// a comment with import \"x\"\nfunction g(y) { return y.map(z => z * 2).filter(Boolean); }\n"
	src := strings.Repeat(chunk, 5000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rewrite(io.Discard, strings.NewReader(src), opts()); err != nil {
			b.Fatal(err)
		}
	}
}
