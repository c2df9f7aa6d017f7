package resolve

import "testing"

// TestAppendReferenceAmortized: appending many resolved references to one
// buffer (htmlrewrite's url buffer, kept for a whole style sheet or
// attribute) grows it amortized, not by exactly each reference's length:
// growing by exactly the length makes every append copy the whole buffer,
// quadratic in a style attribute of many url().
func TestAppendReferenceAmortized(t *testing.T) {
	for _, base := range []string{"https://example.com/dir/page.html", "https://example.com/"} {
		r, err := NewResolver(WHATWG, base, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"img/a.png", "../b/c.png", "https://example.org/x/y.png", "/root.css"} {
			var dst []byte
			allocs := testing.AllocsPerRun(1, func() {
				dst = nil
				for range 10000 {
					if dst, err = r.AppendReference(dst, ref); err != nil {
						t.Fatal(err)
					}
				}
			})
			if allocs > 64 {
				t.Errorf("base %s: 10,000 AppendReference(%q) into one buffer: %v allocations, want amortized growth (<= 64)", base, ref, allocs)
			}
		}
	}
}
