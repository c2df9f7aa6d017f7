package xmlrewrite

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/link"
)

func TestMutatedNoHang(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var seeds []string
	for _, d := range fixtures() {
		seeds = append(seeds, d[:min(len(d), 2000)])
	}
	alphabet := "<>/!?[]-=\"'& ;#x:abc\n\x00\xff\xe0("
	for n := 0; n < 2000; n++ {
		s := []byte(seeds[r.Intn(len(seeds))])
		for k := 0; k < 1+r.Intn(4); k++ {
			i := r.Intn(len(s))
			switch r.Intn(3) {
			case 0:
				s[i] = alphabet[r.Intn(len(alphabet))]
			case 1:
				s = append(s[:i], s[min(len(s), i+1+r.Intn(20)):]...)
			case 2:
				s = append(s[:i], append([]byte{alphabet[r.Intn(len(alphabet))]}, s[i:]...)...)
			}
			if len(s) == 0 {
				s = []byte("<")
			}
		}
		doc := string(s)
		done := make(chan bool)
		go func() {
			var b bytes.Buffer
			Rewrite(&b, strings.NewReader(doc), opts("https://www.example/dir/doc"))
			Links(strings.NewReader(doc), opts("https://www.example/dir/doc"), func(link.Link) error { return nil })
			o := opts("https://www.example/dir/doc")
			o.identity = true
			b.Reset()
			Rewrite(&b, strings.NewReader(doc), o)
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("hang on %q", doc)
		}
	}
}
