"""SVG charts as strings: small, dependency-free and the same for every game family.

Every helper returns one ``<svg>`` element drawn for a column about 600 pixels wide
(it scales down with the page), escapes every piece of text it is given, and uses the
Okabe-Ito palette, whose colours stay distinct for the common kinds of colour
blindness; lines also differ by dash pattern, so the charts survive a grey printer.
Intervals are drawn as whiskers with caps; dashed lines are references, not data.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

#: Okabe-Ito: blue, orange, bluish green, reddish purple, sky blue, vermillion, yellow, black.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
#: Dash patterns that go with the palette's colours in line charts.
DASHES = ("", "7 4", "2 3", "9 3 2 3")
INK = "#222222"
MUTED = "#5f5f5f"
GRID = "#e4e4e4"
SHADE = "#f3f3f3"
FONT = 13
SMALL = 11
FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


@dataclass(frozen=True)
class Series:
    """One named run of values, with optional 95 % interval bounds (None marks a missing value)."""

    name: str
    values: Sequence[float | None]
    low: Sequence[float | None] | None = None
    high: Sequence[float | None] | None = None
    color: str | None = None


@dataclass(frozen=True)
class Panel:
    """One column of a horizontal bar chart: its series, its x axis and its width in pixels."""

    series: Sequence[Series]
    title: str = ""
    x_label: str = ""
    percent: bool = False
    x_max: float | None = None
    reference: float | None = None
    reference_label: str = ""
    value_labels: bool = True
    missing: str = "no data"
    width: int = 300


def nice_ticks(low: float, high: float, count: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values from at or below ``low`` to at or above ``high``, about ``count`` steps.

    >>> nice_ticks(0, 0.23)
    [0.0, 0.05, 0.1, 0.15, 0.2, 0.25]
    >>> nice_ticks(2, 25, integer=True)
    [0.0, 5.0, 10.0, 15.0, 20.0, 25.0]
    >>> nice_ticks(0, 0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    if not high > low:
        high = low + 1
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    steps = (1, 2, 5, 10) if integer else (1, 2, 2.5, 5, 10)
    step = next(m * magnitude for m in steps if m * magnitude >= raw * (1 - 1e-9))
    if integer:
        step = max(1.0, round(step))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    return [round(i * step, 10) + 0.0 for i in range(first, last + 1)]


def bar_chart(
    labels: Sequence[str],
    values: Sequence[float],
    *,
    low: Sequence[float] | None = None,
    high: Sequence[float] | None = None,
    sublabels: Sequence[str] | None = None,
    reference: float | None = None,
    reference_label: str = "",
    percent: bool = False,
    y_label: str = "",
    title: str = "",
    color: str = PALETTE[0],
    width: int = 600,
    height: int = 300,
) -> str:
    """Vertical bars, one per label, with optional 95 % interval whiskers and a dashed reference line.

    >>> svg = bar_chart(["seat 0", "seat 1"], [0.4, 0.5], low=[0.3, 0.4], high=[0.5, 0.6], reference=0.45)
    >>> svg.count('class="bar"'), svg.count('class="whisker"'), svg.count('class="reference"')
    (2, 2, 1)
    """
    top = 34 if reference is not None else 18
    bottom = 30 + (14 if sublabels else 0)
    left, right = 58, 14
    plot_w, plot_h = width - left - right, height - top - bottom
    tops = [max(v, h if h is not None else v) for v, h in zip(values, high or values)]
    ticks = nice_ticks(0, max([*tops, reference or 0, 1e-9]))
    y = _Scale(ticks[0], ticks[-1], top + plot_h, top)
    body = _y_axis(y, ticks, left, width - right, percent, y_label, top, plot_h)
    slot = plot_w / max(len(values), 1)
    bar_w = min(slot * 0.62, 90)
    for i, value in enumerate(values):
        cx = left + slot * (i + 0.5)
        body.append(_rect(cx - bar_w / 2, y(value), bar_w, y(0) - y(value), color, "bar"))
        label_y = y(value)
        if low is not None and high is not None:
            body.append(_whisker_v(cx, y(low[i]), y(high[i]), min(bar_w * 0.4, 12)))
            label_y = min(label_y, y(high[i]))
        if y(0) - y(value) >= 24 and bar_w >= 36:  # inside the bar, clear of whiskers and reference
            body.append(_text(cx, y(0) - 8, _value(value, percent), size=SMALL, fill="#ffffff", weight="600"))
        else:
            body.append(_text(cx, max(label_y - 5, top - 2), _value(value, percent), size=SMALL, fill=MUTED))
        body.append(_text(cx, top + plot_h + 17, labels[i]))
        if sublabels:
            body.append(_text(cx, top + plot_h + 31, sublabels[i], size=SMALL, fill=MUTED))
    body.append(_line(left, y(0), width - right, y(0), INK))
    if reference is not None:
        ry = y(reference)
        body.append(
            f'<line class="reference" x1="{left}" y1="{ry:.1f}" x2="{width - right}" y2="{ry:.1f}" '
            f'stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        body.append(
            f'<line x1="{left}" y1="12" x2="{left + 26}" y2="12" stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        body.append(_text(left + 32, 16, reference_label or _value(reference, percent), anchor="start", size=SMALL))
    return _svg(width, height, title or y_label, body)


def histogram(
    counts: Mapping[int | str, int],
    *,
    share: bool = False,
    x_label: str = "",
    y_label: str = "",
    band: tuple[float, float, str] | None = None,
    markers: Sequence[tuple[str, float]] = (),
    title: str = "",
    color: str = PALETTE[0],
    width: int = 600,
    height: int = 260,
) -> str:
    """Bars of how often each whole number occurred (keys may be strings), with an optional shaded band and markers.

    >>> histogram({"2": 3, "3": 0, "5": 1}, band=(2, 5, "middle"), markers=[("median", 2)]).count('class="bar"')
    2
    """
    data = {int(k): v for k, v in counts.items()}
    total = sum(data.values())
    legend = band is not None or bool(markers)
    top, bottom, left, right = (32 if legend else 14), 46, 58, 14
    plot_w, plot_h = width - left - right, height - top - bottom
    if not total:
        return _svg(width, height, title or x_label, [_text(width / 2, height / 2, "no data", fill=MUTED)])
    lo, hi = min(data), max(data)
    slot = plot_w / (hi - lo + 1)
    x = _Scale(lo - 0.5, hi + 0.5, left, left + plot_w)
    heights = {k: (v / total if share else v) for k, v in data.items()}
    ticks = nice_ticks(0, max(heights.values()) * 1.05)
    y = _Scale(ticks[0], ticks[-1], top + plot_h, top)
    body = []
    if band is not None:
        x0, x1 = x(max(band[0], lo) - 0.5), x(min(band[1], hi) + 0.5)
        body.append(_rect(x0, top, x1 - x0, plot_h, "#e8eef5", "band"))
    body += _y_axis(y, ticks, left, width - right, share, y_label, top, plot_h)
    for k, h in sorted(heights.items()):
        if data[k] > 0:
            body.append(_rect(x(k) - slot * 0.42, y(h), slot * 0.84, y(0) - y(h), color, "bar"))
    body.append(_line(left, y(0), width - right, y(0), INK))
    for tick in nice_ticks(lo, hi, min(12, hi - lo + 1), integer=True):
        if lo <= tick <= hi:
            body.append(_line(x(tick), y(0), x(tick), y(0) + 4, INK))
            body.append(_text(x(tick), y(0) + 17, f"{tick:g}"))
    if x_label:
        body.append(_text(left + plot_w / 2, height - 8, x_label, fill=MUTED))
    at: float = left
    if band is not None:
        body.append(_rect(at, 6, 14, 12, "#e8eef5", "swatch"))
        body.append(_text(at + 19, 16, band[2], anchor="start", size=SMALL))
        at += 26 + _text_width(band[2], SMALL)
    for label, value in markers:
        body.append(
            f'<line class="marker" x1="{x(value):.1f}" y1="{top}" x2="{x(value):.1f}" y2="{y(0):.1f}" '
            f'stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>'
        )
        body.append(f'<line x1="{at}" y1="12" x2="{at + 22}" y2="12" stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4"/>')
        body.append(_text(at + 27, 16, label, anchor="start", size=SMALL))
        at += 40 + _text_width(label, SMALL)
    return _svg(width, height, title or x_label, body)


def hbar_chart(
    labels: Sequence[str],
    panels: Sequence[Panel],
    *,
    label_width: int = 120,
    row_height: int | None = None,
    title: str = "",
) -> str:
    """Horizontal bars, a row per label, in one or more side-by-side panels; a panel's series share each row.

    >>> purchases = Panel([Series("bought", [1.2, 0.3])])
    >>> wins = Panel([Series("owners", [0.3, None], [0.2, None], [0.4, None]), Series("others", [0.2, 0.25])])
    >>> svg = hbar_chart(["purse", "dagger"], [purchases, wins])
    >>> svg.count('class="bar"'), svg.count('class="whisker"')
    (5, 1)
    """
    most = max(len(p.series) for p in panels)
    row = row_height or (12 + 9 * most)
    legend = any(len(p.series) > 1 or p.reference_label for p in panels)
    top = 24 + (18 if legend else 0)
    bottom = 46
    width = label_width + sum(p.width for p in panels) + 12 * (len(panels) - 1) + 8
    height = top + row * len(labels) + bottom
    body = [_rect(0, top + row * i, width, row, SHADE, "row") for i in range(1, len(labels), 2)]
    for i, label in enumerate(labels):
        body.append(_text(label_width - 8, top + row * (i + 0.5) + 4.5, label, anchor="end"))
    x0 = label_width
    for panel in panels:
        body += _hpanel(panel, labels, x0, top, row, legend)
        x0 += panel.width + 12
    return _svg(width, height, title or " / ".join(p.title for p in panels), body)


def _hpanel(panel: Panel, labels: Sequence[str], x0: float, top: float, row: float, legend: bool) -> list[str]:
    pad_right = 46 if panel.value_labels else 14
    tops = [0.0, panel.reference or 0.0, 1e-9]
    for s in panel.series:
        tops += [v for v in (s.high or s.values) if v is not None]
        tops += [v for v in s.values if v is not None]
    count = max(2, min(6, panel.width // 70))
    ticks = nice_ticks(0, panel.x_max if panel.x_max is not None else max(tops) * 1.02, count)
    x = _Scale(ticks[0], ticks[-1], x0 + 6, x0 + panel.width - pad_right)
    bottom_y = top + row * len(labels)
    body = [_text(x0 + 6, 16, panel.title, anchor="start", weight="600")]
    for tick in ticks:
        body.append(_line(x(tick), top, x(tick), bottom_y, GRID))
        body.append(_text(x(tick), bottom_y + 16, _tick(tick, panel.percent), size=SMALL, fill=MUTED))
    body.append(_line(x(0), top, x(0), bottom_y, INK))
    if panel.x_label:
        body.append(_text((x(ticks[0]) + x(ticks[-1])) / 2, bottom_y + 36, panel.x_label, fill=MUTED))
    colors = [s.color or PALETTE[j % len(PALETTE)] for j, s in enumerate(panel.series)]
    if legend:
        at = x0 + 6
        for s, color in zip(panel.series if len(panel.series) > 1 else (), colors):
            body.append(_rect(at, 26, 12, 10, color, "swatch"))
            body.append(_text(at + 16, 35, s.name, anchor="start", size=SMALL))
            at += 28 + _text_width(s.name, SMALL)
        if panel.reference is not None and panel.reference_label:
            body.append(f'<line x1="{at}" y1="31" x2="{at + 20}" y2="31" stroke="{INK}" stroke-dasharray="5 3"/>')
            body.append(_text(at + 25, 35, panel.reference_label, anchor="start", size=SMALL))
    thickness = (row - 8) / len(panel.series)
    for i in range(len(labels)):
        missing = all(s.values[i] is None for s in panel.series)
        if missing:
            body.append(_text(x(0) + 6, top + row * (i + 0.5) + 4, panel.missing, anchor="start", size=SMALL, fill=MUTED))
            continue
        for j, (s, color) in enumerate(zip(panel.series, colors)):
            value = s.values[i]
            y0 = top + row * i + 4 + thickness * j
            if value is None:
                body.append(_text(x(0) + 6, y0 + thickness / 2 + 4, panel.missing, anchor="start", size=SMALL, fill=MUTED))
                continue
            body.append(_rect(x(0), y0 + 0.5, x(value) - x(0), thickness - 1, color, "bar"))
            end = x(value)
            low, high = (s.low[i], s.high[i]) if s.low is not None and s.high is not None else (None, None)
            if low is not None and high is not None:
                body.append(_whisker_h(y0 + thickness / 2, x(low), x(high), min(thickness * 0.8, 10)))
                end = max(end, x(high))
            if panel.value_labels:
                body.append(
                    _text(end + 4, y0 + thickness / 2 + 4, _value(value, panel.percent), anchor="start", size=SMALL, fill=MUTED)
                )
    if panel.reference is not None:
        rx = x(panel.reference)
        body.append(
            f'<line class="reference" x1="{rx:.1f}" y1="{top}" x2="{rx:.1f}" y2="{bottom_y}" '
            f'stroke="{INK}" stroke-width="1.5" stroke-dasharray="5 3"/>'
        )
    return body


def line_chart(
    x: Sequence[float],
    series: Sequence[Series],
    *,
    x_label: str = "",
    y_label: str = "",
    percent: bool = False,
    title: str = "",
    width: int = 600,
    height: int = 300,
    best: int | None = None,
    zero: bool = True,
) -> str:
    """Lines over a shared x axis, one per series, with a point at every value (None leaves a gap); a series with
    ``low`` and ``high`` gets its 95 % band shaded, and ``best`` rings the first series' point at that index.
    ``zero`` starts the y axis at zero; without it the axis fits the values (small changes show).

    >>> svg = line_chart([1, 2, 3], [Series("coins", [4, 3, None], [3, 2, None], [5, 4, None]), Series("stars", [1, 2, 3])], best=1)
    >>> svg.count('class="point"'), svg.count('class="line"'), svg.count('class="band"'), svg.count('class="best"')
    (5, 2, 1, 1)
    """
    top, bottom, left, right = 34, 46, 58, 14
    plot_w, plot_h = width - left - right, height - top - bottom
    present = [v for s in series for values in (s.values, s.low or (), s.high or ()) for v in values if v is not None]
    if not x or not present:
        return _svg(width, height, title or y_label, [_text(width / 2, height / 2, "no data", fill=MUTED)])
    lo, hi = min(x), max(x)
    xs = _Scale(lo, hi if hi > lo else lo + 1, left + 8, left + plot_w - 8)
    if zero:
        ticks = nice_ticks(min(0, *present), max(present) * 1.05)
    else:
        spread = (max(present) - min(present)) or abs(max(present)) * 0.1 or 1.0
        ticks = nice_ticks(min(present) - spread * 0.05, max(present) + spread * 0.05)
    y = _Scale(ticks[0], ticks[-1], top + plot_h, top)
    body = _y_axis(y, ticks, left, width - right, percent, y_label, top, plot_h)
    body.append(_line(left, y(ticks[0]), width - right, y(ticks[0]), INK))
    for tick in nice_ticks(lo, hi, min(12, int(hi - lo) + 1), integer=True):
        if lo <= tick <= hi:
            body.append(_line(xs(tick), y(ticks[0]), xs(tick), y(ticks[0]) + 4, INK))
            body.append(_text(xs(tick), y(ticks[0]) + 17, f"{tick:g}"))
    if x_label:
        body.append(_text(left + plot_w / 2, height - 8, x_label, fill=MUTED))
    at: float = left
    for j, s in enumerate(series):
        color, dash = s.color or PALETTE[j % len(PALETTE)], DASHES[j % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        if s.low is not None and s.high is not None:
            spans: list[list[tuple[float, float, float]]] = [[]]
            for xv, lo_v, hi_v in zip(x, s.low, s.high):
                if lo_v is None or hi_v is None:
                    spans.append([])
                else:
                    spans[-1].append((xs(xv), y(lo_v), y(hi_v)))
            for span in spans:
                if span:
                    outline = [f"{px:.1f},{py:.1f}" for px, _, py in span] + [
                        f"{px:.1f},{py:.1f}" for px, py, _ in reversed(span)
                    ]
                    body.append(f'<polygon class="band" points="{" ".join(outline)}" fill="{color}" fill-opacity="0.16"/>')
        runs: list[list[str]] = [[]]
        for xv, v in zip(x, s.values):
            if v is None:
                runs.append([])
            else:
                runs[-1].append(f"{xs(xv):.1f},{y(v):.1f}")
        points = " ".join(f"M{' L'.join(r)}" for r in runs if r)
        body.append(f'<path class="line" d="{points}" fill="none" stroke="{color}" stroke-width="2.5"{dash_attr}/>')
        for xv, v in zip(x, s.values):
            if v is not None:
                body.append(f'<circle class="point" cx="{xs(xv):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>')
        body.append(f'<line x1="{at}" y1="14" x2="{at + 28}" y2="14" stroke="{color}" stroke-width="2.5"{dash_attr}/>')
        body.append(_text(at + 34, 18, s.name, anchor="start"))
        at += 52 + _text_width(s.name, FONT)
    chosen = series[0].values[best] if series and best is not None else None
    if best is not None and chosen is not None:
        bx, by = xs(x[best]), y(chosen)
        body.append(f'<circle class="best" cx="{bx:.1f}" cy="{by:.1f}" r="8" fill="none" stroke="{INK}" stroke-width="2"/>')
        body.append(_text(bx, by - 13, "best", weight="bold"))
    return _svg(width, height, title or y_label, body)


@dataclass(frozen=True)
class Interval:
    """A value with its 95 % interval; ``strong`` draws it in the accent colour (a significant difference)."""

    label: str
    value: float
    low: float
    high: float
    strong: bool = False


def forest(
    rows: Sequence[Interval],
    *,
    x_label: str = "",
    percent: bool = False,
    unit: str = "",
    legend: tuple[str, str] = ("significant", "not significant"),
    title: str = "",
    label_width: int = 230,
    width: int = 640,
) -> str:
    """A forest plot: one row per estimate, a dot with its interval whisker, around a dashed line at zero.

    ``percent`` shows the ticks as hundredths, followed by ``unit`` (``"%"`` by default; ``" pp"`` for a difference
    of two rates).

    >>> svg = forest([Interval("rounds", 0.5, 0.2, 0.8, True), Interval("coins", -0.1, -0.3, 0.1)])
    >>> svg.count('class="point"'), svg.count('class="whisker"')
    (2, 2)
    >>> 'width="640"' in svg, 'width="640"' in forest([Interval("rounds scored by the holder of the last valid roll", 1, 0, 2)])
    (True, False)
    """
    row, top, bottom, right = 22, 34, 46, 18
    height = top + row * len(rows) + bottom
    longest = max((_text_width(r.label, FONT) * 1.1 + 16 for r in rows), default=0.0)  # bold labels are wider
    if longest > label_width:  # long labels widen the chart rather than run off its left edge
        width, label_width = width + math.ceil(longest) - label_width, math.ceil(longest)
    finite = [v for r in rows for v in (r.low, r.high, r.value) if math.isfinite(v)]
    if not finite:
        return _svg(width, height, title or x_label, [_text(width / 2, height / 2, "no data", fill=MUTED)])
    reach = max(abs(v) for v in finite) * 1.08 or 1.0
    ticks = nice_ticks(-reach, reach, 6)
    x = _Scale(ticks[0], ticks[-1], label_width, width - right)
    plot_bottom = top + row * len(rows)
    body = [_rect(0, top + row * i, width, row, SHADE, "row") for i in range(1, len(rows), 2)]
    for tick in ticks:
        body.append(_line(x(tick), top, x(tick), plot_bottom, GRID))
        shown = f"{round(tick * 100, 6):g}{unit or '%'}" if percent else _tick(tick, False)
        body.append(_text(x(tick), plot_bottom + 17, shown, size=SMALL, fill=MUTED))
    body.append(
        f'<line class="zero" x1="{x(0):.1f}" y1="{top - 4}" x2="{x(0):.1f}" y2="{plot_bottom:.1f}" '
        f'stroke="{INK}" stroke-width="1.2" stroke-dasharray="5 4"/>'
    )
    for i, r in enumerate(rows):
        y = top + row * (i + 0.5)
        color = PALETTE[5] if r.strong else MUTED
        body.append(_text(label_width - 8, y + 4.5, r.label, anchor="end", weight="bold" if r.strong else None))
        if not math.isfinite(r.value):
            body.append(_text(label_width + 8, y + 4.5, "no data", anchor="start", size=SMALL, fill=MUTED))
            continue
        body.append(_whisker_h(y, x(r.low), x(r.high), 8).replace(f'stroke="{INK}"', f'stroke="{color}"'))
        body.append(f'<circle class="point" cx="{x(r.value):.1f}" cy="{y:.1f}" r="4" fill="{color}"/>')
    if x_label:
        body.append(_text(label_width + (width - right - label_width) / 2, height - 8, x_label, fill=MUTED))
    at: float = label_width
    for text, color in zip(legend, (PALETTE[5], MUTED)):
        if not text:  # no legend for a chart with nothing marked
            continue
        body.append(f'<circle cx="{at + 6}" cy="14" r="4" fill="{color}"/>')
        body.append(_text(at + 16, 18, text, anchor="start", size=SMALL))
        at += 40 + _text_width(text, SMALL)
    return _svg(width, height, title or x_label, body)


@dataclass(frozen=True)
class _Scale:
    """A linear map from data values ``lo..hi`` to pixels ``a..b``."""

    lo: float
    hi: float
    a: float
    b: float

    def __call__(self, value: float) -> float:
        span = self.hi - self.lo or 1.0
        return self.a + (value - self.lo) / span * (self.b - self.a)


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}" role="img" aria-label="{escape(title)}" font-family="{FAMILY}" font-size="{FONT}">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _text(
    x: float,
    y: float,
    text: str,
    *,
    anchor: str = "middle",
    size: int = FONT,
    fill: str = INK,
    weight: str | None = None,
    rotate: bool = False,
) -> str:
    extra = f' font-weight="{weight}"' if weight else ""
    if rotate:
        extra += f' transform="rotate(-90 {x:.1f} {y:.1f})"'
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{fill}"{extra}>{escape(str(text))}</text>'
    )


def _rect(x: float, y: float, w: float, h: float, fill: str, cls: str) -> str:
    if h < 0:
        y, h = y + h, -h
    return f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{h:.1f}" fill="{fill}"/>'


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="1"/>'


def _whisker_v(x: float, y_low: float, y_high: float, cap: float) -> str:
    d = f"M{x:.1f},{y_low:.1f} V{y_high:.1f} M{x - cap / 2:.1f},{y_low:.1f} h{cap:.1f} M{x - cap / 2:.1f},{y_high:.1f} h{cap:.1f}"
    return f'<path class="whisker" d="{d}" stroke="{INK}" stroke-width="1.5" fill="none"/>'


def _whisker_h(y: float, x_low: float, x_high: float, cap: float) -> str:
    d = f"M{x_low:.1f},{y:.1f} H{x_high:.1f} M{x_low:.1f},{y - cap / 2:.1f} v{cap:.1f} M{x_high:.1f},{y - cap / 2:.1f} v{cap:.1f}"
    return f'<path class="whisker" d="{d}" stroke="{INK}" stroke-width="1.2" fill="none"/>'


def _y_axis(
    y: _Scale, ticks: list[float], x0: float, x1: float, percent: bool, label: str, top: float, plot_h: float
) -> list[str]:
    body = []
    for tick in ticks:
        body.append(_line(x0, y(tick), x1, y(tick), GRID))
        body.append(_text(x0 - 6, y(tick) + 4, _tick(tick, percent), anchor="end", size=SMALL, fill=MUTED))
    if label:
        body.append(_text(14, top + plot_h / 2, label, fill=MUTED, rotate=True))
    return body


def _tick(value: float, percent: bool) -> str:
    return f"{round(value * 100, 6):g}%" if percent else f"{round(value, 6):g}"


def _value(value: float, percent: bool) -> str:
    return f"{value * 100:.1f}%" if percent else f"{value:.3g}"


def _text_width(text: str, size: int) -> float:
    """A rough width in pixels, enough to lay out a legend."""
    return len(text) * size * 0.56
