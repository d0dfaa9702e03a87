"""The Go structs the Wendy CLI decodes ``template.json`` and ``template.schema.json`` into.

Only the keys the CLI reads; every other key is ignored by Go's decoder,
here as there. A variable's ``default`` is an ``interface{}`` (any JSON
value, numbers as float64), and so is its ``description`` (its type is not
known: read only when it is a string); ``validate.min``/``max`` are read as
numbers (``manifest.py`` requires an integer value).
"""

from __future__ import annotations

from wendy_llm.render.manifest.gotypes import ANY, BOOL, FLOAT, STRING, Pointer, Slice, struct

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from typing import Final

VALIDATE_MODEL: Final = struct("Validate", min=Pointer(FLOAT), max=Pointer(FLOAT), pattern=STRING)
#: ``template.json`` as the CLI decodes it (the keys it reads).
MANIFEST_MODEL: Final = struct(
    "Manifest",
    variables=Slice(
        struct(
            "Variable",
            name=STRING,
            type=STRING,
            default=ANY,
            description=ANY,
            validate=Pointer(VALIDATE_MODEL),
        )
    ),
)
OPTION_MODEL: Final = struct("Option", value=STRING, label=STRING)
WHEN_MODEL: Final = struct(
    "When", questionId=STRING, equals=STRING, contains=STRING, **{"in": Slice(STRING)}
)
#: ``template.schema.json`` as the CLI decodes it.
PICKER_MODEL: Final = struct(
    "Picker",
    phases=Slice(
        struct(
            "Phase",
            when=Pointer(WHEN_MODEL),
            questions=Slice(
                struct(
                    "Question",
                    id=STRING,
                    label=STRING,
                    type=STRING,
                    options=Slice(OPTION_MODEL),
                    default=STRING,
                    required=BOOL,
                    secret=BOOL,
                    when=Pointer(WHEN_MODEL),
                )
            ),
        )
    ),
)
