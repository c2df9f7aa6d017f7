package htmlrewrite

// refreshURL finds the URL in the content of <meta http-equiv=refresh>
// by the HTML Standard's "shared declarative refresh steps" (§4.2.5.3):
// a delay of digits and dots, then a ";" or "," or whitespace, then an
// optional "URL=" in any case, then an optional quote that ends the URL at
// its match. It returns the URL's span in v, or ok false when the content
// has none.
func refreshURL(v string) (u0, u1 int, ok bool) {
	pos := 0
	skipSpace := func() {
		for pos < len(v) && isSpace(v[pos]) {
			pos++
		}
	}
	skipSpace() // step 2
	// Steps 3–7: the time, which must start with a digit or a dot.
	if pos >= len(v) || !(v[pos] >= '0' && v[pos] <= '9' || v[pos] == '.') {
		return 0, 0, false
	}
	for pos < len(v) && (v[pos] >= '0' && v[pos] <= '9' || v[pos] == '.') {
		pos++
	}
	// Step 10: the time must be followed by whitespace, ";" or ",".
	if pos >= len(v) {
		return 0, 0, false
	}
	if c := v[pos]; !isSpace(c) && c != ';' && c != ',' {
		return 0, 0, false
	}
	skipSpace()
	if pos < len(v) && (v[pos] == ';' || v[pos] == ',') {
		pos++
	}
	skipSpace()
	if pos >= len(v) {
		return 0, 0, false
	}
	// Step 11: an optional "URL", whitespace, "=", whitespace; a mismatch
	// jumps to "skip quotes" where it stands.
	if match := func(lo, up byte) bool {
		if pos < len(v) && (v[pos] == lo || v[pos] == up) {
			pos++
			return true
		}
		return false
	}; match('u', 'U') && match('r', 'R') && match('l', 'L') {
		skipSpace()
		if pos < len(v) && v[pos] == '=' {
			pos++
			skipSpace()
		}
	}
	// Skip quotes.
	var quote byte
	if pos < len(v) && (v[pos] == '\'' || v[pos] == '"') {
		quote = v[pos]
		pos++
	}
	u0, u1 = pos, len(v)
	if quote != 0 {
		for i := u0; i < len(v); i++ {
			if v[i] == quote {
				u1 = i
				break
			}
		}
	}
	return u0, u1, true
}
