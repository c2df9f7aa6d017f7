package htmlrewrite

import "iter"

// srcsetURLs yields the spans of the URLs in the srcset value v, as the
// HTML Standard's "parse a srcset attribute" (§4.8.4.3.10) finds them: a
// URL is a run of non-whitespace (so it may contain commas), trailing
// commas end it without descriptors, and the descriptors after it run to
// the first comma outside parentheses. Descriptors are not validated: a
// rewriter keeps them as written.
func srcsetURLs(v string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		pos := 0
		for {
			// Step 3: skip ASCII whitespace and commas.
			for pos < len(v) && (isSpace(v[pos]) || v[pos] == ',') {
				pos++
			}
			if pos >= len(v) {
				return
			}
			// Step 5: the URL is the run of non-whitespace.
			u0 := pos
			for pos < len(v) && !isSpace(v[pos]) {
				pos++
			}
			u1 := pos
			if v[u1-1] == ',' {
				// Step 7.1: remove trailing commas; no descriptors follow.
				for u1 > u0 && v[u1-1] == ',' {
					u1--
				}
			} else {
				// Step 8: the descriptor tokenizer, to the first comma
				// outside parentheses.
				inParens := false
			desc:
				for pos < len(v) {
					c := v[pos]
					pos++
					switch {
					case inParens:
						inParens = c != ')'
					case c == '(':
						inParens = true
					case c == ',':
						break desc
					}
				}
			}
			if u1 > u0 && !yield(u0, u1) {
				return
			}
		}
	}
}
