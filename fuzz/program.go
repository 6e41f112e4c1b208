package fuzz

import (
	"fmt"
	"strings"
)

// maxGoroutineOps caps the ops of one goroutine in a decoded [program], so
// that checking its history stays fast whatever the fuzzer feeds.
const maxGoroutineOps = 12

// program is what each of several goroutines does to one registry: one
// [regOps] sequence per goroutine. A Release that is not Shared names an
// override by its position among its own goroutine's Sets.
type program []regOps

// String lists each goroutine's ops.
func (p program) String() string {
	var b strings.Builder
	for g, ops := range p {
		fmt.Fprintf(&b, "goroutine %d:\n", g)
		for _, op := range ops {
			fmt.Fprintf(&b, "\t%v\n", op)
		}
	}
	return b.String()
}

// decodeProgram decodes data into a program of two to four goroutines. The
// first byte picks how many (2 + data[0]%3); each further pair of bytes is
// one op, decoded as in [decodeOps], with the goroutine it belongs to in
// bits 3 to 6 of its kind byte (modulo the number of goroutines) and, for a
// Release, bit 7 set for a Shared one (for a Set, bit 7 makes it an
// [opBurst], as in decodeOps, but only the program's first burst is one:
// the linearizability check's time grows fast with the burst's hundreds of
// ops, and one burst already runs concurrently with everything else). Ops
// past [maxGoroutineOps] for their goroutine are dropped.
func decodeProgram(data []byte) program {
	n := 2
	if len(data) > 0 {
		n += int(data[0] % 3)
		data = data[1:]
	}
	p := make(program, n)
	o := make([]overrides, n)
	for i := 0; i+1 < len(data); i += 2 {
		k, a := data[i], data[i+1]
		g := int(k>>3&15) % n
		if len(p[g]) >= maxGoroutineOps {
			continue
		}
		if op, ok := decodeOp(k, a, &o[g], k&0x80 != 0 && k&7 != byte(opSet)); ok {
			p[g] = append(p[g], op)
			if op.Kind == opBurst {
				for j := range o {
					o[j].noBursts = true
				}
			}
		}
	}
	return p
}

// encodeProgram returns bytes that [decodeProgram] decodes to p, which must
// have two to four goroutines of at most [maxGoroutineOps] ops each. It
// panics when no bytes decode to p.
func encodeProgram(p program) []byte {
	if len(p) < 2 || len(p) > 4 {
		panic(fmt.Sprintf("fuzz: cannot encode a program of %d goroutines", len(p)))
	}
	data := []byte{byte(len(p) - 2)}
	o := make([]overrides, len(p))
	for i := 0; ; i++ {
		done := true
		for g, ops := range p {
			if i >= len(ops) {
				continue
			}
			if i >= maxGoroutineOps {
				panic(fmt.Sprintf("fuzz: goroutine %d has more than %d ops", g, maxGoroutineOps))
			}
			done = false
			k, a := encodeOp(ops[i], &o[g])
			if ops[i].Kind == opBurst {
				for j := range o {
					o[j].noBursts = true
				}
			}
			k |= byte(g) << 3
			if ops[i].Shared {
				k |= 0x80
			}
			data = append(data, k, a)
		}
		if done {
			return data
		}
	}
}
