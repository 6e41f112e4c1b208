package wgsl

// number scans a numeric literal at src[i:] (a digit, or '.' then a digit)
// per the specification's int_literal and float_literal grammar.
func (lx *lexer) number(i int) (token, int, error) {
	src := lx.src
	start := i
	digits := func(j int, ok func(byte) bool) int {
		for j < len(src) && ok(src[j]) {
			j++
		}
		return j
	}
	float := false
	if src[i] == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X') {
		j := digits(i+2, isHexDigit)
		mant := j - (i + 2)
		if j < len(src) && src[j] == '.' {
			float = true
			k := digits(j+1, isHexDigit)
			mant += k - (j + 1)
			j = k
		}
		if mant == 0 {
			return token{}, 0, lx.errf(start, "malformed hexadecimal literal")
		}
		if j < len(src) && (src[j] == 'p' || src[j] == 'P') {
			float = true
			k := j + 1
			if k < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			e := digits(k, isDigit)
			if e == k {
				return token{}, 0, lx.errf(start, "malformed hexadecimal float exponent")
			}
			j = e
			if j < len(src) && (src[j] == 'f' || src[j] == 'h') {
				j++
			}
		} else if !float && j < len(src) && (src[j] == 'i' || src[j] == 'u') {
			j++
		}
		return lx.finishNumber(start, j, float)
	}
	j := digits(i, isDigit)
	intDigits := j - i
	if j < len(src) && src[j] == '.' && (intDigits > 0 || j+1 < len(src) && isDigit(src[j+1])) {
		float = true
		j = digits(j+1, isDigit)
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if e := digits(k, isDigit); e > k {
			float = true
			j = e
		} else {
			return token{}, 0, lx.errf(start, "malformed float exponent")
		}
	}
	switch {
	case j < len(src) && (src[j] == 'f' || src[j] == 'h'):
		if !float && intDigits > 1 && src[start] == '0' {
			return token{}, 0, lx.errf(start, "decimal literal with a leading zero")
		}
		float = true
		j++
	case !float && j < len(src) && (src[j] == 'i' || src[j] == 'u'):
		j++
		fallthrough
	case !float:
		if intDigits > 1 && src[start] == '0' {
			return token{}, 0, lx.errf(start, "decimal literal with a leading zero")
		}
	}
	return lx.finishNumber(start, j, float)
}

// finishNumber makes the token src[start:end] and rejects a literal glued to
// a following word character (123abc).
func (lx *lexer) finishNumber(start, end int, float bool) (token, int, error) {
	if end < len(lx.src) {
		c := lx.src[end]
		if isDigit(c) || c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return token{}, 0, lx.errf(start, "malformed numeric literal %q", lx.src[start:end+1])
		}
	}
	k := tkInt
	if float {
		k = tkFloat
	}
	return token{kind: k, pos: start, text: lx.src[start:end]}, end, nil
}
