"""The public API's arguments, checked against its own type hints.

Every failure of a public call is a :class:`~wendy_llm.errors.WendyLlmError`
(issue 31), a wrong-typed argument included: ``load_template(None)`` is an
:class:`~wendy_llm.errors.ArgumentTypeError` naming the function, the
argument, what it takes and what it got, never an ``AttributeError`` from
deep inside. :func:`checked` wraps a public function or method: the call
is bound to the signature (a missing or unknown argument is the same
error), and each argument is checked against its annotation, resolved on
the first call (annotations name types imported for type checkers only, so
they are looked up among the package's loaded modules too). Containers are
checked element by element when they are lists, tuples, sets or dicts (a
generator is never consumed); :func:`checked_except` leaves some arguments
to the function, which checks them with better messages (the overrides: a
``ValuesError`` naming the variable). A hint this module cannot read is not
checked, never guessed.  A value of the right type the argument cannot
take (``Renderer(timeout=0)``, none of a ``Literal``'s values) is an
:class:`ArgumentValueError`.  :func:`check_fields` checks a dataclass's
fields the same way, from the ``__post_init__`` of the values a caller
makes (``Side``, ``Policy``, ``FileScope``).  Neither ``inspect`` nor
``typing`` is imported (the command line renders through decorated methods
and must not pay for them): a call is bound from the function's code
object, and the hints are read on its first call.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import types
from collections.abc import Callable as CallableABC

from wendy_llm.errors import WendyLlmError

TYPE_CHECKING = False  # typing is imported for mypy only (README, Performance)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, cast

    F = TypeVar("F", bound=Callable[..., Any])

else:

    def cast(kind: str, value: object) -> object:  # typing.cast, without importing typing
        return value


class ArgumentTypeError(WendyLlmError, TypeError):
    """A public function or method was called with an argument of the wrong
    type, or with a missing or unknown one (``argument`` is then None).
    ``function`` names the call (``load_template()``).  Also a ``TypeError``,
    what Python itself would have raised."""

    def __init__(self, message: str, *, function: str, argument: str | None) -> None:
        super().__init__(message)
        self.function = function
        self.argument = argument


class ArgumentValueError(WendyLlmError, ValueError):
    """A public function, method or constructor was given an argument of the
    right type but a value it cannot take (``Renderer(timeout=0)``, a glob
    that does not parse, a ``Side`` kind that is none of its kinds).
    ``function`` names the call (``Renderer()``), ``argument`` the parameter.
    Also a ``ValueError``, what Python's own conventions would raise."""

    def __init__(self, message: str, *, function: str, argument: str) -> None:
        super().__init__(message)
        self.function = function
        self.argument = argument


def value_error(function: str, argument: str, problem: str) -> ArgumentValueError:
    """``Renderer(): timeout must be positive, got 0``, as an error to raise."""
    return ArgumentValueError(
        f"{function}: {argument} {problem}", function=function, argument=argument
    )


def type_error(function: str, argument: str, value: object, wanted: str) -> ArgumentTypeError:
    """``RenderedTree(): files must be Mapping[...], not int``, as an error to raise."""
    message = f"{function}: {argument} must be {wanted}, not {_what(value)}"
    return ArgumentTypeError(message, function=function, argument=argument)


_UNCHECKED = object()  # an annotation that could not be resolved
_CALLABLE: object = CallableABC
_CONCRETE = (list, tuple, set, frozenset, dict, str, bytes, bytearray)


def checked(function: F) -> F:
    """``@checked``: see the module docstring."""
    return checked_except()(function)


def checked_except(*own: str) -> Callable[[F], F]:
    """``@checked_except("app_id", "overrides")``: the named arguments are left
    to the function, which checks them with errors of its own that name them
    (an ``AppIdError``, a ``ValuesError`` naming the variable)."""
    return functools.partial(_wrap, own=frozenset(own))


def _wrap(function: F, *, own: frozenset[str]) -> F:
    # A constructor is named as it is called: Renderer(), not Renderer.__init__().
    name = f"{function.__qualname__.removesuffix('.__init__')}()"
    parameters = _Parameters(function)
    hints: dict[str, object] = {}

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bound = parameters.bind(name, args, kwargs)
        if not hints:
            hints.update(_hints(function))
            hints.setdefault("", None)  # read once, even when nothing resolves
        for argument, value in bound.items():
            if argument not in own:
                _check(name, argument, value, hints.get(argument, _UNCHECKED))
        return function(*args, **kwargs)

    return cast("F", wrapper)


def _check(name: str, argument: str, value: object, hint: object) -> None:
    """Raise the argument error of ``value`` given for ``argument`` of ``name``,
    unless its hint takes it."""
    if hint is _UNCHECKED or _accepts(value, hint):
        return
    allowed = _literal_values(hint)
    if allowed and isinstance(value, tuple({type(a) for a in allowed})):
        # The right type, the wrong value: one of a Literal's values is asked for.
        listed = ", ".join(repr(a) for a in allowed)
        raise value_error(name, argument, f"must be one of {listed}, not {value!r}")
    raise type_error(name, argument, value, _shown(hint))


def _literal_values(hint: object) -> tuple[object, ...]:
    """The values of a ``Literal`` hint (of an optional one too), else ()."""
    typing = sys.modules.get("typing")
    if typing is not None and _origin(hint) is typing.Literal:
        return tuple(getattr(hint, "__args__", ()))
    if isinstance(hint, types.UnionType) or (typing is not None and _origin(hint) is typing.Union):
        return tuple(v for arg in getattr(hint, "__args__", ()) for v in _literal_values(arg))
    return ()


_FIELD_HINTS: dict[type, dict[str, object]] = {}


def check_fields(instance: object) -> None:
    """Check a public dataclass's fields against their hints, from its
    ``__post_init__``: ``Side("bogus", ...)`` is an argument error naming
    ``kind``, never a value accepted silently.  For the values a caller makes
    and passes in (a policy, a scope, a side), not the results the library
    makes by the thousand, which would pay for it on every check."""
    cls = type(instance)
    hints = _FIELD_HINTS.get(cls)
    if hints is None:
        fields: dict[str, Any] = getattr(cls, "__dataclass_fields__", {})
        namespace = _namespace(cls.__module__)
        hints = {}
        for klass in reversed(cls.__mro__):
            for field, annotation in vars(klass).get("__annotations__", {}).items():
                if field in fields and fields[field].init:
                    with contextlib.suppress(Exception):  # unreadable: not checked
                        hints[field] = _resolve(annotation, namespace)
        _FIELD_HINTS[cls] = hints
    name = f"{cls.__name__}()"
    for field, hint in hints.items():
        _check(name, field, getattr(instance, field), hint)


class _Parameters:
    """A function's parameters from its code object: binding a call without
    ``inspect`` (which the command line must not import to render)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        code = function.__code__
        names = code.co_varnames
        self.positional: tuple[str, ...] = names[: code.co_argcount]
        self.keyword_only: tuple[str, ...] = names[
            code.co_argcount : code.co_argcount + code.co_kwonlyargcount
        ]
        self.var_positional = bool(code.co_flags & 0x04)
        self.var_keyword = bool(code.co_flags & 0x08)
        defaults = function.__defaults__ or ()
        optional = set(self.positional[len(self.positional) - len(defaults) :])
        optional |= set(function.__kwdefaults__ or {})
        self.required = [n for n in (*self.positional, *self.keyword_only) if n not in optional]

    def bind(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The arguments by parameter name (``self`` left out), or the
        ``ArgumentTypeError`` Python's own binding would have been."""
        problem = None
        if len(args) > len(self.positional) and not self.var_positional:
            problem = f"takes {len(self.positional)} positional arguments, {len(args)} given"
        bound = dict(zip(self.positional, args, strict=False))
        for key, value in kwargs.items():
            if key in bound:
                problem = f"got multiple values for argument {key!r}"
            elif key not in self.positional and key not in self.keyword_only:
                if not self.var_keyword:
                    problem = f"got an unexpected keyword argument {key!r}"
                continue
            bound[key] = value
        missing = [n for n in self.required if n not in bound]
        if missing and problem is None:
            problem = f"missing a required argument: {missing[0]!r}"
        if problem is not None:
            raise ArgumentTypeError(f"{name}: {problem}", function=name, argument=None)
        bound.pop("self", None)
        bound.pop("cls", None)
        return bound


def _hints(function: Callable[..., Any]) -> dict[str, object]:
    """Each parameter's annotation, resolved; those that cannot be are left out."""
    namespace = _namespace(function.__module__)
    found: dict[str, object] = {}
    for parameter, annotation in getattr(function, "__annotations__", {}).items():
        if parameter == "return":
            continue
        try:
            found[parameter] = _resolve(annotation, namespace)
        except Exception:
            continue
    return found


def _namespace(module_name: str) -> dict[str, object]:
    namespace: dict[str, object] = {"os": os}
    typing = sys.modules.get("typing")  # its names, when a module has loaded it
    if typing is not None:
        namespace.update((n, getattr(typing, n)) for n in typing.__all__)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("wendy_llm"):
            for key, value in list(vars(module).items()):
                if isinstance(value, type) or _origin(value) is not None:
                    namespace.setdefault(key, value)
    namespace.update(getattr(sys.modules.get(module_name), "__dict__", {}))
    return namespace


def _resolve(annotation: object, namespace: dict[str, object]) -> object:
    while isinstance(annotation, str) or type(annotation).__name__ == "ForwardRef":
        text = str(getattr(annotation, "__forward_arg__", annotation))
        annotation = eval(text, namespace)
    return annotation


def _origin(hint: object) -> object:
    return getattr(hint, "__origin__", None)


def _accepts(value: object, hint: object) -> bool:
    typing = sys.modules.get("typing")
    if hint is object or (typing is not None and hint is typing.Any):
        return True
    if hint is None or hint is type(None):
        return value is None
    origin = _origin(hint)
    args: tuple[object, ...] = getattr(hint, "__args__", ())
    if isinstance(hint, types.UnionType) or (typing is not None and origin is typing.Union):
        return any(_accepts(value, arg) for arg in args)
    if typing is not None and origin is typing.Literal:
        return value in args
    if origin is _CALLABLE:
        return callable(value)
    if origin is not None:
        if not isinstance(origin, type):
            return True  # a generic this module cannot read: not checked
        if not isinstance(value, origin):
            return False
        return _elements_accepted(value, origin, args)
    if isinstance(hint, type):
        if hint is float:  # PEP 484's numeric tower: an int is a float argument
            return isinstance(value, int | float)
        return isinstance(value, hint)
    return True  # a TypeVar, a NewType, ...: not checked


def _elements_accepted(value: object, origin: type, args: tuple[object, ...]) -> bool:
    if not args or not isinstance(value, _CONCRETE):
        return True
    if isinstance(value, dict) and len(args) == 2:
        return all(_accepts(k, args[0]) and _accepts(v, args[1]) for k, v in value.items())
    if isinstance(value, tuple) and origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_accepts(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_accepts, value, args))
    if len(args) == 1:  # a dict iterates over its keys
        return all(_accepts(item, args[0]) for item in value)
    return True


def _shown(hint: object) -> str:
    if isinstance(hint, type):
        return hint.__name__
    text = repr(hint)
    for prefix in ("typing.", "collections.abc.", "pathlib.", "wendy_llm."):
        text = text.replace(prefix, "")
    return text


def _what(value: object) -> str:
    kind = type(value).__name__
    if isinstance(value, dict) and value:
        keys = ", ".join(sorted({type(k).__name__ for k in value}))
        values = ", ".join(sorted({type(v).__name__ for v in value.values()}))
        return f"{kind} of {keys} to {values}"
    if isinstance(value, list | tuple | set | frozenset) and value:
        return f"{kind} of {', '.join(sorted({type(v).__name__ for v in value}))}"
    return "None" if value is None else kind
