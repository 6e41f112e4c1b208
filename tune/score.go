package tune

import (
	"slices"
	"time"
)

// Score returns the score of samples (see the package documentation): the
// lower, the better; 0 for no samples.
func Score(samples []time.Duration) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	lo, med := float64(slices.Min(samples)), float64(quantile(samples, 0.5))
	iqr := float64(quantile(samples, 0.75) - quantile(samples, 0.25))
	spread := 0.0
	if med > 0 {
		spread = iqr / med
	}
	return time.Duration((0.75*lo + 0.25*med) * (1 + 0.5*spread))
}

// quantile returns the q-quantile of xs by linear interpolation.
func quantile(xs []time.Duration, q float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := pos - float64(i)
	return s[i] + time.Duration(frac*float64(s[i+1]-s[i]))
}
