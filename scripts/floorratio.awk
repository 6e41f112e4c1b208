# Reads one `streamgate bench` table and prints, for bench-trees.sh, lines
# "W NAME VALUE" (W the build, -v w=old|new): each case's ns/op, its ratio
# to its baseline (NAME÷baseline) when it has one, and, for a case with a
# kernels=K key (and -P, its GOMAXPROCS) that is not a Floor case, its
# ns/op over the C floor's (Floor/impl=c/kernels=K-P) in the same run (NAME÷floor). Fields split on
# "|" (-F'|').
/^\| [A-Z][A-Za-z]+\// {
	gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $7)
	print w, $2, $3
	if ($7 != "") print w, $2 "÷baseline", $7
	name[++n] = $2; ns[$2] = $3 + 0
}
END {
	for (i = 1; i <= n; i++) {
		c = name[i]
		if (c ~ /^Floor\// || !match(c, /kernels=[0-9]+-[0-9]+$/)) continue
		f = "Floor/impl=c/" substr(c, RSTART)
		if (f in ns && ns[f] > 0) print w, c "÷floor", ns[c] / ns[f]
	}
}
