# parser.wl - the Link Grammar Parser (SPEC CPU2000 197.parser is this program) parsing generated English.
WL_DESC="link-parser parses WL_UNIT generated English sentences with the package's English dictionary (constituent trees out)"
WL_PACKAGE=link-grammar
WL_PROGRAM=/usr/bin/link-parser
WL_INPUT="inputs/parser/gen.py WL_UNIT 1: sentences from our own small grammar and vocabulary (4-20 words; clauses, PPs, relative and that-clauses, coordination, questions), one per line on stdin"
WL_WHY_SKIP="reading and compiling the English dictionary (en/4.0.dict, affix, regex and knowledge files) takes ~425M instructions before the first sentence"
WL_PRELOAD_FIXTIME=1      # the library reads getrusage for its parse-time accounting
WL_STDIN=sentences.txt
WL_UNIT_tiny=2            WL_SKIP_tiny=430000000
WL_UNIT_default=22        WL_SKIP_default=450000000
WL_UNIT_paper=190         WL_SKIP_paper=500000000

wl_input() { /usr/bin/python3 -S -B "$WL_SRC/gen.py" "$WL_UNIT" 1 > sentences.txt; }
# -spell=0: no hunspell guesses for unknown words (there are none);
# -constituents=1: print a phrase-structure tree per sentence (the output the
# tests compare); -graphics=0: no ASCII diagrams.
wl_command() { WL_ARGV=(/usr/bin/link-parser en -graphics=0 -spell=0 -verbosity=1 -constituents=1); }
