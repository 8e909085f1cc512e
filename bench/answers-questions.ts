/**
 * The real-document evaluation of bench/answers.ts: documents already on a Debian machine (manual
 * pages, licences, an HTML manual, a PDF specification) and questions about them. Each answerable
 * question names its document and a pattern of the answer as the document states it (checked against
 * the extracted text before the run, so a question whose answer is not in the text is reported, not
 * counted); the others are off-topic or near misses (their words are in the documents, their answer is not).
 */
const MAN = "/usr/share/man/man1";
const LIC = "/usr/share/common-licenses";
const FFI = "/usr/share/doc/libffi8/html";

export const DOCUMENTS = [
  ...["gzip", "tar", "grep", "ls", "cp", "sed", "jq", "xz", "bzip2", "chmod", "du", "df", "sort", "head", "tail"].map(
    (n) => `${MAN}/${n}.1.gz`,
  ),
  ...["wc", "cut", "tr", "make", "diff", "ssh"].map((n) => `${MAN}/${n}.1.gz`),
  `${LIC}/Apache-2.0`,
  `${LIC}/GPL-3`,
  `${LIC}/MPL-2.0`,
  ...["The-Basics", "Thread-Safety", "Introduction", "Memory-Usage", "The-Closure-API", "Primitive-Types"].map(
    (n) => `${FFI}/${n}.html`,
  ),
  "/usr/share/doc/base-passwd/users-and-groups.html",
  "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
];

/** An answerable question: the document (file name) that answers it and the answer as a pattern. */
export interface Answerable {
  q: string;
  doc: string;
  answer: RegExp;
}

export const ANSWERABLE: Answerable[] = [
  { q: "How do I keep the input files when compressing with gzip?", doc: "gzip.1.gz", answer: /-k --keep/ },
  { q: "What is the default compression level of gzip?", doc: "gzip.1.gz", answer: /default compression level is -6/ },
  { q: "Which gzip option decompresses files?", doc: "gzip.1.gz", answer: /-d --decompress/ },
  { q: "How do I make gzip travel the directory structure recursively?", doc: "gzip.1.gz", answer: /-r --recursive/ },
  { q: "How do I create a new tar archive?", doc: "tar.1.gz", answer: /-c, --create/ },
  { q: "Which tar option extracts files from an archive?", doc: "tar.1.gz", answer: /-x, --extract/ },
  { q: "How do I list the contents of a tar archive?", doc: "tar.1.gz", answer: /-t, --list/ },
  { q: "Which tar option filters the archive through gzip?", doc: "tar.1.gz", answer: /-z, --gzip/ },
  { q: "Which tar option filters the archive through xz?", doc: "tar.1.gz", answer: /-J, --xz/ },
  { q: "How do I change to a directory before tar performs any operations?", doc: "tar.1.gz", answer: /-C, --directory/ },
  { q: "Which grep option ignores case distinctions?", doc: "grep.1.gz", answer: /-i, --ignore-case/ },
  { q: "Which grep option prints the names of files without a match?", doc: "grep.1.gz", answer: /-L, --files-without-match/ },
  { q: "How do I count matching lines with grep?", doc: "grep.1.gz", answer: /-c, --count/ },
  { q: "Which grep option inverts the sense of matching?", doc: "grep.1.gz", answer: /-v, --invert-match/ },
  { q: "What exit status does grep return when a line is selected?", doc: "grep.1.gz", answer: /exit status is 0/ },
  { q: "Which ls option does not ignore entries starting with a dot?", doc: "ls.1.gz", answer: /-a, --all/ },
  { q: "How do I print sizes in human readable format with ls?", doc: "ls.1.gz", answer: /-h, --human-readable/ },
  { q: "Which ls option lists directories themselves, not their contents?", doc: "ls.1.gz", answer: /-d, --directory/ },
  { q: "Which cp option copies directories recursively?", doc: "cp.1.gz", answer: /-R, -r, --recursive/ },
  { q: "How do I make cp prompt before overwrite?", doc: "cp.1.gz", answer: /-i, --interactive/ },
  { q: "How do I edit files in place with sed?", doc: "sed.1.gz", answer: /--in-place/ },
  { q: "Which sed option suppresses automatic printing of pattern space?", doc: "sed.1.gz", answer: /-n, --quiet, --silent/ },
  {
    q: "Which jq option writes strings directly instead of formatting them as JSON strings?",
    doc: "jq.1.gz",
    answer: /--raw-output \/ -r/,
  },
  { q: "How do I output the keys of each object in sorted order with jq?", doc: "jq.1.gz", answer: /--sort-keys \/ -S/ },
  { q: "What is the default compression preset level of xz?", doc: "xz.1.gz", answer: /The default is -6|in XZ Utils it is -6/ },
  { q: "Which xz option keeps the input files?", doc: "xz.1.gz", answer: /-k, --keep/ },
  {
    q: "What block size does bzip2 use by default?",
    doc: "bzip2.1.gz",
    answer: /900,000 bytes \(the default\)|default 900 k block size/,
  },
  {
    q: "Which bzip2 flag reduces memory use during compression with a block size of 200k?",
    doc: "bzip2.1.gz",
    answer: /-s selects a block size of 200 k/,
  },
  {
    q: "What does the restricted deletion flag do for directories?",
    doc: "chmod.1.gz",
    answer: /prevents unprivileged users from removing or renaming a file/,
  },
  { q: "How do I make du produce a grand total?", doc: "du.1.gz", answer: /-c, --total/ },
  { q: "Which df option prints sizes in powers of 1000?", doc: "df.1.gz", answer: /-H, --si/ },
  { q: "How do I reverse the result of comparisons with sort?", doc: "sort.1.gz", answer: /-r, --reverse/ },
  { q: "Which sort option compares according to string numerical value?", doc: "sort.1.gz", answer: /-n, --numeric-sort/ },
  { q: "How many lines does head print by default?", doc: "head.1.gz", answer: /first 10/ },
  { q: "How do I make tail output appended data as the file grows?", doc: "tail.1.gz", answer: /-f, --follow/ },
  { q: "Which wc option prints the newline counts?", doc: "wc.1.gz", answer: /-l, --lines/ },
  { q: "How do I use a different field delimiter than TAB with cut?", doc: "cut.1.gz", answer: /-d, --delimiter/ },
  { q: "Which tr option deletes characters instead of translating them?", doc: "tr.1.gz", answer: /-d, --delete/ },
  { q: "How do I tell make to use a file as a makefile?", doc: "make.1.gz", answer: /-f file, --file=file/ },
  { q: "Which make option continues as much as possible after an error?", doc: "make.1.gz", answer: /-k, --keep-going/ },
  { q: "How many lines of unified context does diff output by default?", doc: "diff.1.gz", answer: /default 3/ },
  { q: "Which ssh option sets the port to connect to on the remote host?", doc: "ssh.1.gz", answer: /-p port/ },
  { q: "Which ssh option selects the identity file for public key authentication?", doc: "ssh.1.gz", answer: /-i identity_file/ },
  { q: "Which ssh option enables X11 forwarding?", doc: "ssh.1.gz", answer: /-X\b/ },
  {
    q: "What kind of copyright license does each contributor grant under the Apache License?",
    doc: "Apache-2.0",
    answer: /perpetual,\s+worldwide, non-exclusive/,
  },
  {
    q: "When do patent licenses terminate under the Apache License if you institute patent litigation?",
    doc: "Apache-2.0",
    answer: /as of the date such litigation is filed/,
  },
  { q: "When was version 3 of the GNU General Public License published?", doc: "GPL-3", answer: /29 June 2007/ },
  { q: "Is libffi thread-safe?", doc: "Thread-Safety.html", answer: /libffi is not completely thread-safe/ },
  { q: "What does ffi_prep_cif return?", doc: "The-Basics.html", answer: /ffi_prep_cif returns a libffi status code/ },
  { q: "Which user do daemons that need not own any files run as?", doc: "users-and-groups.html", answer: /nobody/ },
  {
    q: "Which version of the Shared MIME-info Database specification is this?",
    doc: "shared-mime-info-spec.pdf",
    answer: /version 0\.21/,
  },
  { q: "Which user and group own the lpr spool directories?", doc: "users-and-groups.html", answer: /owned by lp\/lp/ },
];

/** Questions the documents do not answer: off-topic, and near misses whose words they contain. */
export const UNANSWERABLE: string[] = [
  "What is the capital of France?",
  "How do I bake sourdough bread?",
  "What is the default compression level of zstd?",
  "Who won the 2018 football World Cup?",
  "How do I change a flat tire on a car?",
  "What is the boiling point of water at sea level?",
  "Which rsync option preserves hard links?",
  "How do I configure a WireGuard VPN tunnel?",
  "What is the population of Tokyo?",
  "Which docker command lists running containers?",
  "Which kubectl command shows the logs of a pod?",
  "What port does PostgreSQL listen on by default?",
  "Which 7z option sets the compression method?",
  "How do I enable dark mode in Microsoft Word?",
  "What is the recommended daily intake of vitamin C?",
  "How do I reset my home router password?",
  "Which curl option follows redirects?",
];
