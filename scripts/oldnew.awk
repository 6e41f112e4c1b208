# Reads lines "old|new NAME VALUE" (a case's or metric's figure in one
# round of one build) and prints a Markdown table: each name's median over
# the rounds for the old build and the new, with its min–max, and new's
# median over old's ("—" where a build has no figure for the name). Variables: what (the first column's heading) and
# rounds (for the last line). Used by bench-trees.sh and bench-web-trees.sh.
function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $2; w = $1; n[w, k]++; v[w, k, n[w, k]] = $3 + 0; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k } }
END {
	printf "| %s | old (min–max) | new (min–max) | new ÷ old |\n|---|---:|---:|---:|\n", what
	for (i = 1; i <= nk; i++) {
		k = keys[i]
		for (w = 0; w < 2; w++) {
			s = w ? "new" : "old"; m = n[s, k]
			delete a; lo = 1e18; hi = 0
			for (j = 1; j <= m; j++) { a[j] = v[s, k, j]; if (a[j] < lo) lo = a[j]; if (a[j] > hi) hi = a[j] }
			md[s] = med(a, m); mn[s] = lo; mx[s] = hi
		}
		for (w = 0; w < 2; w++) { s = w ? "new" : "old"; f[s] = n[s, k] ? sprintf("%.3g (%.3g–%.3g)", md[s], mn[s], mx[s]) : "—" }
		printf "| %s | %s | %s | %s |\n", k, f["old"], f["new"], (n["old", k] && n["new", k] && md["old"] != 0) ? sprintf("%.3f", md["new"] / md["old"]) : "—"
	}
	printf "\n%d rounds, old and new alternating\n", rounds
}
