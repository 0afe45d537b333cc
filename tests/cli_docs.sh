#!/bin/sh
# tests/cli_docs.sh -- the links of the Markdown pages cannot rot.
#
#   sh tests/cli_docs.sh                    (from the top directory)
#
# Every relative link [text](path), [text](path#anchor) and [text](#anchor)
# of README.md, CHANGES.md, docs/*.md, docs/tutorial/*.md and sim/README.md
# names a file or directory that exists, and its anchor is a heading of the
# target page (GitHub's rule: lower case; letters, digits, spaces, '-' and
# '_' kept, every other character dropped; spaces become '-'; a repeated
# heading gets -1, -2, ...), or an <a id/name>.  Links inside code blocks
# (``` fences) and inline code are not links.  Not checked: links with a title
# ([t](p "title")), <p> targets and reference-style links ([t][ref]); the
# pages use none.
# Prints TAP (tests/lib.sh); exits non-zero if any test failed.
set -u
. tests/lib.sh
scratch cli_docs

# anchors FILE: the anchors of a Markdown page, one per line
anchors() {
    awk '/^```/ { code = !code; next }
         !code && /^#+ / {
             h = $0; sub(/^#+ +/, "", h); h = tolower(h)
             gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h)
             n = seen[h]++; print (n ? h "-" n : h)     # a repeat: h-1, h-2, ...
         }
         { s = $0
           while (match(s, /<a (id|name)="[^"]*"/)) {
               a = substr(s, RSTART, RLENGTH); sub(/^<a (id|name)="/, "", a)
               sub(/"$/, "", a); print a; s = substr(s, RSTART + RLENGTH)
           }
         }' "$1"
}

# links FILE: "LINE TARGET" for every relative link outside code
links() {
    awk '/^```/ { code = !code; next }
         !code {
             s = $0; gsub(/`[^`]*`/, "", s)
             while (match(s, /\]\([^) ]+\)/)) {
                 t = substr(s, RSTART + 2, RLENGTH - 3); s = substr(s, RSTART + RLENGTH)
                 if (t !~ /^(https?|mailto|ftp):/) print NR, t
             }
         }' "$1"
}

pages=""
for f in README.md CHANGES.md docs/*.md docs/tutorial/*.md sim/README.md; do
    [ -f "$f" ] && pages="$pages $f"
done
total=0
for f in $pages; do
    dir=$(dirname "$f") bad="" n=0
    links "$f" > "$T/links"
    while read -r line target; do
        n=$((n + 1))
        path=${target%%#*} anchor=""
        case $target in *'#'*) anchor=${target#*#} ;; esac
        if [ -z "$path" ]; then dest=$f; else dest=$dir/$path; fi
        if [ ! -e "$dest" ]; then
            bad="$bad $f:$line: '$target' (no $dest);"
            continue
        fi
        if [ -n "$anchor" ]; then
            case $dest in
            *.md) a=$T/anchors.$(echo "$dest" | tr -c 'A-Za-z0-9\n' _)   # once a page
                  [ -f "$a" ] || anchors "$dest" > "$a"
                  grep -qxF -- "$anchor" "$a" ||
                      bad="$bad $f:$line: '$target' (no such heading in $dest);" ;;
            esac
        fi
    done < "$T/links"
    total=$((total + n))
    [ -z "$bad" ] && ok "$f: its $n relative links name files that exist and headings they have" ||
        notok "$f:$bad"
done

# the checker itself: a page with a good and a bad link of each kind
mkdir -p "$T/p/sub"
printf '# Top: one, two & three\n\n## Grid policies: volume or time\n## Grid policies: volume or time\n<a id="here"></a>\n' > "$T/p/a.md"
printf '[x](#top-one-two--three) [y](a.md#grid-policies-volume-or-time) [z](#here) [w](sub/)\n```\n[no](nowhere.md)\n```\n`[no](nowhere.md)`\n' >> "$T/p/a.md"
links "$T/p/a.md" > "$T/l"
anchors "$T/p/a.md" > "$T/an"
[ "$(wc -l < "$T/l")" -eq 4 ] && grep -qxF top-one-two--three "$T/an" &&
    grep -qxF grid-policies-volume-or-time "$T/an" && grep -qxF grid-policies-volume-or-time-1 "$T/an" &&
    grep -qxF here "$T/an" &&
    ! grep -qx 'grid-policies' "$T/an" &&
    ok "the checker: GitHub's anchors (punctuation dropped, spaces to '-', repeats -1), <a id>, links outside code only ($total links checked)" ||
    notok "the checker: links '$(cat "$T/l")', anchors '$(cat "$T/an")'"

done_testing
