package tree

import "testing"

func TestReferable(t *testing.T) {
	for name, want := range map[string]bool{
		"a.js": true, "a.JSON": true, "x.cjs": true, "app": true, "dir/manifest": true, "a.js?v=3": true,
		".source": false, "README.md": false, "robots.txt": false, "a.css.map": false, "x.html": false,
	} {
		if got := referable(name); got != want {
			t.Errorf("referable(%q) = %v", name, got)
		}
	}
}
