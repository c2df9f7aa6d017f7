package tree

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCount: Count says how many items Walk yields, skipping what Walk
// skips (version control, temporary files, links inside trees) and
// counting a missing path as Walk's one error.
func TestCount(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.html", "b/c.css", "b/d/e.png", ".git/config", "b/" + ".relurl-x.tmp"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.html", filepath.Join(dir, "link.html")); err != nil {
		t.Fatal(err)
	}
	paths := []string{dir, filepath.Join(dir, "a.html"), filepath.Join(dir, "missing")}
	walked := 0
	for range Walk(paths) {
		walked++
	}
	n, err := Count(context.Background(), paths)
	if err != nil || n != walked || n != 5 {
		t.Errorf("Count = %d, %v; Walk yields %d; want 5", n, err, walked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := Count(ctx, paths); err == nil || n != 0 {
		t.Errorf("Count(cancelled) = %d, %v", n, err)
	}
}
