package manifest

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func BenchmarkRewrite(b *testing.B) {
	var m strings.Builder
	m.WriteString(`{"name":"App","start_url":"./?src=pwa","id":"app","icons":[`)
	for i := range 2000 {
		if i > 0 {
			m.WriteString(",")
		}
		fmt.Fprintf(&m, `{"src":"icons/%d.png","sizes":"%dx%d","type":"image/png","purpose":"any maskable"}`, i, i, i)
	}
	m.WriteString(`]}`)
	src := m.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rewrite(io.Discard, strings.NewReader(src), opts()); err != nil {
			b.Fatal(err)
		}
	}
}
