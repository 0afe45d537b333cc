# tests/json.awk -- a strict JSON checker in POSIX awk, so that the tests do
# not need python3 or jq.
#
#   awk -f tests/json.awk FILE
#
# If FILE holds exactly one JSON value (RFC 8259: no trailing commas, no NaN
# or Infinity, no duplicate keys in an object, nothing after the value), it
# prints one line per object member, "PATH<TAB>TYPE", and exits 0.  PATH is
# the key ("seconds"), inside an object "outer.key", inside an array of
# objects "list[].key"; TYPE is string, integer (a number without fraction
# or exponent), number, boolean, null, array or object.  Otherwise it prints
# "json.awk: WHAT at byte N" to stderr and exits 1.

BEGIN {
    ctl = ""
    for (i = 1; i < 32; i++)
        ctl = ctl sprintf("%c", i)
}

{ text = text $0 "\n" }

END {
    len = length(text)
    pos = 1
    err = ""
    nobj = 0
    out = ""
    ws()
    if (value(""))
        ws()
    if (err == "" && pos <= len)
        fail("text after the value")
    if (err != "") {
        print "json.awk: " err > "/dev/stderr"
        exit 1
    }
    printf "%s", out
}

function fail(what) {
    if (err == "")
        err = what " at byte " pos
    return 0
}

function ws() {
    while (pos <= len && index(" \t\n\r", substr(text, pos, 1)) > 0)
        pos++
}

# One value at pos; sets vtype.  Returns 1, or 0 after fail().
function value(path,    c) {
    if (pos > len)
        return fail("unexpected end")
    c = substr(text, pos, 1)
    if (c == "{")
        return object(path)
    if (c == "[")
        return array(path)
    if (c == "\"") {
        vtype = "string"
        return string()
    }
    if (c == "-" || (c >= "0" && c <= "9"))
        return number()
    if (substr(text, pos, 4) == "true" || substr(text, pos, 4) == "null") {
        vtype = substr(text, pos, 4) == "true" ? "boolean" : "null"
        pos += 4
        return 1
    }
    if (substr(text, pos, 5) == "false") {
        vtype = "boolean"
        pos += 5
        return 1
    }
    return fail("unexpected character '" c "'")
}

function object(path,    id, key, full, c) {
    id = ++nobj
    pos++
    ws()
    if (substr(text, pos, 1) == "}") {
        pos++
        vtype = "object"
        return 1
    }
    for (;;) {
        if (substr(text, pos, 1) != "\"")
            return fail("expected a key")
        if (!string())
            return 0
        key = sval
        if ((id, key) in seen)
            return fail("duplicate key '" key "'")
        seen[id, key] = 1
        ws()
        if (substr(text, pos, 1) != ":")
            return fail("expected ':'")
        pos++
        ws()
        full = path == "" ? key : path "." key
        if (!value(full))
            return 0
        out = out full "\t" vtype "\n"
        ws()
        c = substr(text, pos, 1)
        pos++
        if (c == "}")
            break
        if (c != ",") {
            pos--
            return fail("expected ',' or '}'")
        }
        ws()
    }
    vtype = "object"
    return 1
}

function array(path,    c) {
    pos++
    ws()
    if (substr(text, pos, 1) == "]") {
        pos++
        vtype = "array"
        return 1
    }
    for (;;) {
        if (!value(path "[]"))
            return 0
        ws()
        c = substr(text, pos, 1)
        pos++
        if (c == "]")
            break
        if (c != ",") {
            pos--
            return fail("expected ',' or ']'")
        }
        ws()
    }
    vtype = "array"
    return 1
}

# A string at pos (on the opening quote); its raw text in sval.
function string(    c, e) {
    sval = ""
    pos++
    for (;;) {
        if (pos > len)
            return fail("unterminated string")
        c = substr(text, pos, 1)
        if (c == "\"") {
            pos++
            return 1
        }
        if (index(ctl, c) > 0)
            return fail("control character in a string")
        if (c == "\\") {
            e = substr(text, pos + 1, 1)
            if (e == "u") {
                if (substr(text, pos + 2, 4) !~ /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]$/)
                    return fail("bad \\u escape")
                c = substr(text, pos, 6)
            } else if (e != "" && index("\"\\/bfnrt", e) > 0) {
                c = c e
            } else {
                return fail("bad escape")
            }
        }
        sval = sval c
        pos += length(c)
    }
}

function number(    s) {
    s = substr(text, pos, 64)
    if (!match(s, /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/))
        return fail("bad number")
    s = substr(s, 1, RLENGTH)
    vtype = s ~ /^-?[0-9]+$/ ? "integer" : "number"
    pos += RLENGTH
    return 1
}
