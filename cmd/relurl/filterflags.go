package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/resolve"
)

// filterFlags are the link filters of links and fetch --links; package
// linkfilter applies them.
type filterFlags struct {
	internal, external bool
	kinds, schemes     string
	normalize          string
	strip              bool
	unique             bool
}

// addFilterFlags binds the filter flags to fs; internalHelp says what
// "internal" means for the command's inputs.
func addFilterFlags(fs *flag.FlagSet, internalHelp string) *filterFlags {
	ff := new(filterFlags)
	fs.BoolVar(&ff.internal, "internal", false, internalHelp)
	fs.BoolVar(&ff.external, "external", false, "only links out of the site (the others, and those that did not resolve)")
	fs.StringVar(&ff.kinds, "kind", "", "only these kinds, comma-separated: "+strings.Join(kindNames(), ", "))
	fs.StringVar(&ff.schemes, "scheme", "", `only URLs with these schemes, comma-separated, e.g. "http,https" (links that did not resolve are left out)`)
	fs.BoolVar(&ff.strip, "strip-fragment", false, `remove the fragment ("#...") of every URL`)
	fs.StringVar(&ff.normalize, "normalize", "", "normalize every URL (RFC 3986 §6), comma-separated: "+strings.Join(resolve.NormalizationNames(), ", "))
	fs.BoolVar(&ff.unique, "unique", false, "print each URL once (text) or each link to a URL once (jsonl), after --strip-fragment and --normalize; links that failed are kept")
	return ff
}

// any reports whether any filter flag is set.
func (ff *filterFlags) any() bool {
	return ff.internal || ff.external || ff.kinds != "" || ff.schemes != "" || ff.normalize != "" || ff.strip || ff.unique
}

// filter returns the filter the flags ask for; errors are usage errors.
func (ff *filterFlags) filter() (linkfilter.Filter, error) {
	f := linkfilter.Filter{StripFragment: ff.strip}
	switch {
	case ff.internal && ff.external:
		return f, errors.New("--internal and --external exclude each other")
	case ff.internal:
		f.Scope = linkfilter.Internal
	case ff.external:
		f.Scope = linkfilter.External
	}
	if ff.kinds != "" {
		f.Kinds = map[link.Kind]bool{}
		for k := range strings.SplitSeq(ff.kinds, ",") {
			kind, ok := kindByName(k)
			if !ok {
				return f, fmt.Errorf("unknown --kind %q (want %s)", k, strings.Join(kindNames(), ", "))
			}
			f.Kinds[kind] = true
		}
	}
	if ff.schemes != "" {
		for sch := range strings.SplitSeq(ff.schemes, ",") {
			if !validScheme(sch) {
				return f, fmt.Errorf(`--scheme: %q is not a scheme (want names such as "http,https")`, sch)
			}
			f.Schemes = append(f.Schemes, sch)
		}
	}
	n, err := resolve.ParseNormalization(ff.normalize)
	if err != nil {
		return f, fmt.Errorf("--normalize: %v", err)
	}
	f.Normalize = n
	return f, nil
}

// kindByName returns the link kind called name (link.Kind's String).
func kindByName(name string) (link.Kind, bool) {
	for k := link.Navigation; k <= link.Header; k++ {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}

func kindNames() []string {
	var names []string
	for k := link.Navigation; k <= link.Header; k++ {
		names = append(names, k.String())
	}
	return names
}

// validScheme reports whether s is a scheme name: a letter, then letters,
// digits, "+", "-" and "." (RFC 3986 §3.1).
func validScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= s[i] && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.'):
		default:
			return false
		}
	}
	return s != ""
}
