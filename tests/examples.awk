# tests/examples.awk -- the complete programs in a header's top comment, for
# tests/run.sh: awk -v prefix=DIR/NAME -f tests/examples.awk HEADER writes
# DIR/NAME_1.c, DIR/NAME_2.c, ...  A program starts at a line " *   #include"
# (or #define) and ends at the '}' that closes its main(), at the indentation
# of that first line; the comment's " *" and the indentation are removed.
# Snippets that are not complete programs (no #include first) are left out.
/\*\// { exit }
!inb && /^ \* +#(include|define)/ {
    match($0, /^ \* +/)
    ind = RLENGTH
    inb = 1
    inmain = 0
    n++
    out = prefix "_" n ".c"
    printf "" > out
}
inb {
    line = $0 ~ /^ \*$/ ? "" : substr($0, ind + 1)
    print line > out
    if (line ~ /^int main\(/)
        inmain = 1
    if (inmain && line == "}") {
        inb = 0
        close(out)
    }
}
