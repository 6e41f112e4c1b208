package naga

import "testing"

func TestParseDiagnostic(t *testing.T) {
	for _, tc := range []struct {
		name, full     string
		line, col      int
		msg, errorText string
	}{
		{
			name: "parse",
			full: "error: expected identifier, found \"{\"\n  ┌─ wgsl:1:10\n  │\n1 │ fn main( {\n  │          ^ expected identifier\n\n",
			line: 1, col: 10,
			msg:       `expected identifier, found "{"`,
			errorText: `1:10: expected identifier, found "{"`,
		},
		{
			name: "validate",
			full: "error: Entry point main at Compute is invalid\n  ┌─ wgsl:4:11\n  │\n4 │   let b = a[5];\n  │           ^^^^ naga::ir::Expression [1]\n  │\n  = Expression [1] is invalid\n  = Accessing index 5 is out of [0] bounds\n\n",
			line: 4, col: 11,
			msg:       "Entry point main at Compute is invalid: Expression [1] is invalid: Accessing index 5 is out of [0] bounds",
			errorText: "4:11: Entry point main at Compute is invalid: Expression [1] is invalid: Accessing index 5 is out of [0] bounds",
		},
		{
			name:      "no position",
			full:      "error: internal WGSL front end error\n = note: Parser recursion limit exceeded\n",
			msg:       "internal WGSL front end error: Parser recursion limit exceeded",
			errorText: "internal WGSL front end error: Parser recursion limit exceeded",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := parseDiagnostic(StageParse, tc.full)
			if e.Line != tc.line || e.Column != tc.col {
				t.Errorf("position = %d:%d, want %d:%d", e.Line, e.Column, tc.line, tc.col)
			}
			if e.Msg != tc.msg {
				t.Errorf("Msg = %q, want %q", e.Msg, tc.msg)
			}
			if got := e.Error(); got != tc.errorText {
				t.Errorf("Error() = %q, want %q", got, tc.errorText)
			}
			if e.Full == "" || e.Full[len(e.Full)-1] == '\n' {
				t.Errorf("Full = %q, want the diagnostic without trailing newlines", e.Full)
			}
		})
	}
}

func TestInvalidUTF8(t *testing.T) {
	e := invalidUTF8("fn f() {}\n  é\xff")
	if e.Line != 2 || e.Column != 4 || e.Stage != StageParse {
		t.Errorf("invalidUTF8 = %d:%d %s, want 2:4 parse", e.Line, e.Column, e.Stage)
	}
}
