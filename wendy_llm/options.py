"""Every tunable number of wendy-llm in one place: timeouts, limits, worker counts.

Each is a policy, not a fact about Wendy or Go: changing one changes how
long something may take or how much of something is kept or shown, never
what a render is. Functions take them as defaults (``Renderer(timeout=...)``,
``run_check(compose_workers=...)``); the rest of the package does not
repeat their values. Facts and formats (the slug length, the fixture and
report versions, the wire protocol's field sizes) stay with their modules.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final


_MIB: Final = 1 << 20

# --- the engine (the Go helper) --------------------------------------------
#: Seconds one render may run without finishing: a template that loops longer
#: is stuck (e.g. ``range`` over a huge int), not big.
RENDER_TIMEOUT_S: Final = 10.0
#: Bytes one render may produce; a larger output is a runaway template.
RENDER_MAX_OUTPUT_BYTES: Final = 64 * _MIB
#: Bytes of output one ``render_many`` may hold (a tree, or every pick's tree
#: for the lints; an output repeated in it counts once): the per-render cap
#: alone let eight 60 MB files take 1 GB of memory.  Two maximal renders'
#: worth; real trees are kilobytes.
RENDER_MAX_BATCH_OUTPUT_BYTES: Final = 2 * RENDER_MAX_OUTPUT_BYTES
#: Renders per request: the helper renders one batch while Python encodes the
#: next; the first is smaller, so the helper starts sooner.
RENDER_BATCH_JOBS: Final = 64
RENDER_FIRST_BATCH_JOBS: Final = 8
#: Seconds between ``Renderer.close()``'s kills of the helper of a render it
#: waits for (another thread's, which may be starting a replacement).
RENDER_CLOSE_POLL_S: Final = 0.05
#: Seconds a request waits for its answer awake (polling, giving the CPU to
#: any other thread between looks) before sleeping until it comes, and
#: microseconds the helper watches for a next request before blocking, when
#: the last one came as soon (a render loop): a process asleep in the kernel
#: is woken on an idle CPU, slowly. A single render took 27 to 32 us on a
#: calm bench machine without these waits, 13 to 14 with them; under load,
#: about the same either way (docs/performance.md).
RENDER_ANSWER_SPIN_S: Final = 30e-6
HELPER_REQUEST_SPIN_US: Final = 30
#: Parsed templates the helper keeps, and their estimated memory (passed on its
#: command line): clearing the cache costs only a re-parse, holding too much
#: costs the machine's memory.
PARSE_CACHE_TEMPLATES: Final = 4096
PARSE_CACHE_BYTES: Final = 64 * _MIB
#: Template texts the helper keeps between requests, and their bytes, so a
#: render refers to its text by id instead of sending it again (passed on its
#: command line): beyond them all are forgotten and sent again, which costs
#: one render's pipe each; the bytes are held once in the helper.
HELPER_KEPT_TEXTS: Final = 4096
HELPER_KEPT_TEXT_BYTES: Final = 16 * _MIB
#: Spans (output runs, each written by one template node) of a source map
#: traced to template lines (a finding's annotation): a real file has some
#: hundreds; a ``range`` of 4,000,000 turns made as many, and took minutes
#: and gigabytes as Python objects.  Past it, a finding keeps its rendered
#: line and says it could not be traced.
SOURCE_MAP_MAX_SPANS: Final = 100_000
#: Seconds the helper gets to exit after its input closes before it is killed.
HELPER_EXIT_WAIT_S: Final = 2.0
#: Answers to Go calls (``Atoi``, ``%v``, ...) remembered per process, and the
#: longest call worth remembering (a 5000-digit ``--var`` is answered, not kept).
GO_CALL_CACHE_ENTRIES: Final = 1 << 14
GO_CALL_CACHE_MAX_BYTES: Final = 1 << 12
#: Seconds for ``go version`` and for building the helper (a cold Go build cache
#: on a slow machine takes minutes).
GO_VERSION_TIMEOUT_S: Final = 60.0
GO_BUILD_TIMEOUT_S: Final = 900.0

# --- reading documents -----------------------------------------------------
#: JSON/YAML nesting refused beyond this depth: no template file comes near it,
#: and deeper input would exhaust Python's recursion in every walker.
MAX_DOCUMENT_DEPTH: Final = 100
#: YAML nodes of a document, counted while it is composed and again after
#: alias expansion (go-yaml's "excessive aliasing"): a billion laughs must be
#: a parse error, not an hour of CPU, and every walker after the parse is
#: linear in the nodes: a rendered compose value of a million items took
#: 107 s and 0.77 GB across them, and even stopped at 100,000 nodes the six
#: renders of a small template took 40 s on a loaded 2-core machine.  Real
#: compose and rules files have hundreds of nodes, a large one a few thousand.
MAX_YAML_NODES: Final = 50_000

#: Bytes of any one file the gate reads from the repository it judges (a
#: template's file, a fixture, a rules or settings file: safe_read.py): a
#: pull request can commit a huge file, or a link to ``/dev/zero``, and a
#: read without a limit would take the runner's memory.  As much as one
#: render may produce, since a fixture holds a render's file; real files are
#: kilobytes.
READ_MAX_BYTES: Final = RENDER_MAX_OUTPUT_BYTES

#: Bytes of ``template.json`` or ``template.schema.json``, and variables in
#: ``template.json``: decoding takes some hundred times the bytes (300,000
#: variables took 600 MB), and real manifests are a few kilobytes.
MANIFEST_MAX_BYTES: Final = 1 * _MIB
MANIFEST_MAX_VARIABLES: Final = 1000

# --- picks -----------------------------------------------------------------
#: Up to this many combinations every one is a pick; beyond it, a pairwise
#: covering set (enough to meet every pair of answers, far fewer renders).
PICKS_FULL_PRODUCT: Final = 64
#: A checkbox with at most this many options is enumerated as every subset
#: (2**4 = 16); a larger one as single options, none, all and the default.
PICKS_CHECKBOX_SUBSETS: Final = 4
#: Pairwise generation: walk steps spent looking for a pick that covers one
#: pair before calling the pair unreachable, and candidate picks compared per
#: pick kept (AETG's trade of time against the number of picks).
PAIRWISE_SEARCH_STEPS: Final = 5000
PAIRWISE_CANDIDATES: Final = 4
#: Pairs of answers (of two different questions) a picker may make before
#: its picks are computed: pairwise generation's time grows with the pairs
#: times the picks it makes.  On a loaded 2-core machine 4,500 pairs (10
#: questions of 10 options) took 2.5 s, 19,000 took 17 s and 42,000 took
#: 109 s; 60 radio questions of 20 options (708,000 pairs) never ended.
#: Real pickers make tens.
PICKS_MAX_PAIRS: Final = 10_000

# --- checks ----------------------------------------------------------------
#: Tool processes (``docker-compose config``, ``bash -n``, ShellCheck) run at
#: a time; None: one per core this process may use (``os.sched_getaffinity``).
#: Each is one CPU-bound process (Compose with ``GOMAXPROCS=1``), so a
#: process per core keeps every core busy, and more would only add
#: switching; a fixed 3 left cores idle on a CI runner and oversubscribed a
#: 2-core one.  And the seconds one Compose run may take.
COMPOSE_WORKERS: Final[int | None] = None
COMPOSE_TIMEOUT_S: Final = 60.0
#: Seconds for one ShellCheck run over a render's scripts, and for any other
#: validator tool (``bash -n``).
SHELLCHECK_TIMEOUT_S: Final = 120.0
TOOL_TIMEOUT_S: Final = 60.0
#: Bytes of address space (``RLIMIT_AS``) a ShellCheck run may map, and any
#: other tool (``bash -n``, ``docker-compose config``): a script of 1,500
#: nested ``if``s made ShellCheck peak at 3.2 GB (17.6 GB for deeper ones),
#: where the bundled template's scripts peak under 40 MB; at 512 MiB that
#: script fails in some 12 s, with a finding.  Two such runs (one per core
#: of a CI runner) and the gate itself stay under 2 GB.  Compose and bash
#: need far less than 1 GiB on any real file.
SHELLCHECK_MEMORY_BYTES: Final = 512 * _MIB
TOOL_MEMORY_BYTES: Final = 1024 * _MIB
#: Build-argument value combinations enumerated per Dockerfile ``FROM``; more
#: is not what the check is for, and is reported instead.
DOCKERFILE_COMBINATIONS: Final = 512
#: Image models (docker/image) kept, one per distinct Dockerfile, build
#: arguments and context: a repository's templates render a few dozen.
IMAGE_MODELS_CACHED: Final = 256

# --- diffs and reports -----------------------------------------------------
#: Lines of one diff shown (``--max-diff-lines``), and the factor for all the
#: diffs of a run together: a change touching every pick must not bury the
#: summary under thousands of lines.
DIFF_MAX_LINES: Final = 200
DIFF_TOTAL_FACTOR: Final = 3
#: A diff shared by more picks names this many and counts the rest.
DIFF_NAMED_PICKS: Final = 6
#: Characters of diff in a Markdown summary (GitHub's job summary holds 1 MiB),
#: and findings listed there before "... and N more".
MARKDOWN_MAX_DIFF_CHARS: Final = 200_000
MARKDOWN_MAX_FINDINGS: Final = 50
#: A step summary over 1 MiB is dropped whole by GitHub: each report's Markdown
#: (``check --markdown``, ``diff --markdown``) stays below this, and a
#: summary of several reports is the action's to keep under 1 MiB in all.
MARKDOWN_MAX_BYTES: Final = 1_000_000
#: The action's whole step summary (``wendy-llm summary``: every report it
#: adds together), under the same 1 MiB; and the least a caller may ask for,
#: which still leaves room for a report's head and the note on what was cut.
STEP_SUMMARY_MAX_BYTES: Final = 1_000_000
STEP_SUMMARY_MIN_BYTES: Final = 16_384
#: Characters of one text a report writes (a message, a value it quotes, one
#: line of a diff or of a tool's output), in every format but JSON, before
#: it is cut with ``… [cut: N more characters]``: a 40 MB rendered line
#: reached the terminal, the annotations and JUnit whole (80 MB of log).
#: The longest real message (Compose quoting a service) is some hundreds.
REPORT_MAX_TEXT_CHARS: Final = 4_000

# --- the terminal ----------------------------------------------------------
#: Seconds a step runs before its progress line appears (quick runs stay
#: clean), unless ``WENDY_LLM_PROGRESS_DELAY`` says otherwise; and how often
#: the line is redrawn.
PROGRESS_DELAY_S: Final = 0.5
PROGRESS_INTERVAL_S: Final = 0.2
