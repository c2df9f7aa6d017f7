package link

import "testing"

func TestKindNames(t *testing.T) {
	want := []string{"navigation", "resource", "form", "citation", "refresh", "css", "redirect", "import", "manifest", "feed", "header"}
	ks := Kinds()
	if len(ks) != len(want) {
		t.Fatalf("Kinds() = %v, want %d kinds", ks, len(want))
	}
	for i, k := range ks {
		if k.String() != want[i] {
			t.Errorf("Kind(%d).String() = %q, want %q", i, k, want[i])
		}
		if p, ok := ParseKind(want[i]); !ok || p != k {
			t.Errorf("ParseKind(%q) = %v, %v", want[i], p, ok)
		}
	}
	if _, ok := ParseKind("nope"); ok {
		t.Error(`ParseKind("nope") ok`)
	}
	if s := Kind(99).String(); s != "Kind(99)" {
		t.Errorf("Kind(99) = %q", s)
	}
}
