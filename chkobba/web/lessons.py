"""Lessons (``learn.html``): a lesson's data (a ``lessons/*.json`` file the
page fetched) checked and kept for judging, each step answered with the one
state answer (:func:`chkobba.web.answer.answer`) for the step's reader, and
a reader's move judged (:mod:`chkobba.links.lessons`)."""

from __future__ import annotations

from .. import links
from .. import messages as M
from ..errors import ChkobbaError
from ..links import lessons as lesson_data
from .answer import Reader, answer
from .edge import Args, Seat, WebError, action, api, as_message, safe, safe_params, show
from .saves import STORE


@api("lesson")
def _lesson_open(args: Args) -> dict[str, object]:
    """A lesson's data: checked, kept for judging, and answered as its
    steps, each with its state and link."""
    try:
        lesson = lesson_data.parse_lesson(args["lesson"], "page")
    except ChkobbaError as exc:
        raise WebError("web.lesson.data", reason=as_message(exc)) from None
    STORE.lessons.put(lesson.id, lesson)
    steps = []
    for st in lesson.steps:
        session = st.session()
        seats = [Seat("human") if i == st.seat else Seat("computer") for i in range(session.players)]
        state = answer(session, Reader(seat=st.seat, speaks_to=st.seat, marks=False), seats,
                       table=f"lesson-{lesson.id}-{st.id}"[:40])
        steps.append({"id": st.id, "seat": st.seat, "text": st.text.text, "text_key": st.text.key,
                      "hint": st.hint.text, "hint_key": st.hint.key,
                      "link": links.encode(st.link()), "state": state})
    return {"id": lesson.id, "title": lesson.title.text, "title_key": lesson.title.key,
            "game": lesson.game, "steps": steps}


@api("lesson", "step", "move")
def _lesson_judge(args: Args) -> dict[str, object]:
    """A reader's move in a lesson step: right, or the engine's reason / the hint."""
    lesson = STORE.lessons.get(args["lesson"]) if isinstance(args["lesson"], str) else None
    step = next((s for s in lesson.steps if s.id == args["step"]), None) if lesson else None
    if step is None:
        raise WebError("web.lesson.unknown", lesson=show(args["lesson"]), step=show(args["step"]))
    verdict = step.judge(action(args["move"]))
    msg = verdict.message
    return {"right": verdict.right, "code": msg.code, "params": safe(dict(msg.params)),
            "text": M.render(msg.code, safe_params(msg.params)),
            "hint": verdict.hint.text if verdict.hint else None}
