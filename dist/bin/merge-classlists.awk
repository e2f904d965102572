# Merges the class lists of several training runs (java -XX:DumpLoadedClassList) into one for
# -Xshare:dump, keeping the first run's order: each class once, each class's @cp line once, any
# other @ line (lambda proxies, lambda forms) once. Java 24+ numbers every class ("NAME id: N")
# and fails the dump on a number used twice, so ids are renumbered in order; Java 17's lists have
# none. Used by dist/bin/nccl-triage and dist/bundle/build-bundle.sh.
#
#   awk -f merge-classlists.awk LIST... > MERGED
/^#/ { next }
$2 == "id:" { if (seen[$1]++) next; print $1, "id:", ids++; next }
$1 == "@cp" { if (seen["@cp " $2]++) next; print; next }
/^@/ { if (seen[$0]++) next; print; next }
NF > 0 { if (seen[$1]++) next; print }
