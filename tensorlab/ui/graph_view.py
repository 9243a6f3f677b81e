"""The autograd graph of the selected tensor, drawn in Qt (no Graphviz).

The tensor's grad_fn is at the top; edges follow ``next_functions`` down to the
``AccumulateGrad`` nodes of the leaves, the direction gradients flow in.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QWidget

from tensorlab.core.snapshot import GraphInfo, SavedTensor, TensorInfo
from tensorlab.ui.i18n import Texts, tr
from tensorlab.ui.palette import MUTED
from tensorlab.ui.scene_view import SceneView

__all__ = ["GraphView", "layers"]


def layers(graph: GraphInfo) -> list[list[int]]:
    """Nodes by depth (longest path from the root), so every edge points downwards."""
    depth = {0: 0}
    changed = True
    rounds = 0
    while changed and rounds <= len(graph.nodes):
        changed = False
        rounds += 1
        for a, b in graph.edges:
            if a in depth and depth.get(b, -1) < depth[a] + 1:
                depth[b] = depth[a] + 1
                changed = True
    rows: dict[int, list[int]] = {}
    for node in range(len(graph.nodes)):
        rows.setdefault(depth.get(node, 0), []).append(node)
    return [rows[d] for d in sorted(rows)]


def _saved_text(saved: SavedTensor) -> str:
    """One saved tensor, in the window's language."""
    if saved.status == "changed":
        return tr("saved {label}: changed in place after it was saved").format(label=saved.label)
    if saved.status == "freed":
        return tr("saved {label}: freed by backward()").format(label=saved.label)
    if saved.status == "unavailable":
        return tr("saved {label}: unavailable").format(label=saved.label)
    if saved.version is None:
        return tr("saved {label}: {who}").format(label=saved.label, who=saved.who)
    return tr("saved {label}: {who}, version {version}").format(label=saved.label, who=saved.who,
                                                                version=saved.version)


class GraphView(SceneView):
    """Draws a snapshot's :class:`~tensorlab.core.graph.GraphInfo` as boxes and arrows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphView")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Autograd graph of the selected tensor")
        self.i18n.on_change(self._draw)
        self.setBackgroundBrush(QBrush(QColor("#ffffff")))
        self.info: TensorInfo | None = None
        self.graph: GraphInfo | None = None

    def show_tensor(self, info: TensorInfo | None) -> None:
        """Draw the graph behind ``info`` (or say why there is none)."""
        self.info = info
        self.graph = None if info is None else info.graph
        self._draw()

    def show_graph(self, name: str, graph: GraphInfo) -> None:
        """The graph behind the shown tensor, read for it after the snapshot."""
        if self.info is not None and self.info.name == name:
            self.graph = graph
            self._draw()

    def _draw(self) -> None:
        scene = self.scene()
        scene.clear()
        info = self.info
        if info is None:
            self._text(tr("Select a tensor to see its autograd graph."), size=11, color=MUTED)
            return
        graph = self.graph
        if graph is None:
            if info.grad_fn not in (None, "Invalid"):
                message = tr("Reading the graph behind {name}…").format(name=info.name)
            elif info.grad_fn == "Invalid":
                message = tr("{name}'s grad_fn is Invalid: torch refuses to report it because\n"
                             "its base was changed in place after split/unbind/chunk.").format(name=info.name)
            elif info.requires_grad and info.is_leaf:
                message = tr("{name} is a leaf: no node produced it.\n"
                             "backward() accumulates its gradient into {name}.grad.").format(name=info.name)
            else:
                message = tr("{name} does not require grad: no gradient is computed for it,\n"
                             "but an operation may still save it for backward() (x * {name} saves {name}).").format(
                    name=info.name)
            self._text(message, size=11, color=MUTED)
            return
        self._draw_graph(graph)

    def _draw_graph(self, graph: GraphInfo) -> None:
        s = self.scale_factor
        rows = layers(graph)
        boxes: dict[int, QRectF] = {}
        y = 8 * s
        row_gap = 46 * s
        widest = 0.0
        laid_out: list[list[tuple[int, list[QGraphicsSimpleTextItem], float, float]]] = []
        for row in rows:
            placed = []
            for node_index in row:
                node = graph.nodes[node_index]
                lines = [self._text(node.name, size=10.5, bold=True)]
                if node.leaf:
                    lines.append(self._text(f"→ {node.leaf}.grad", size=10, bold=True, color=QColor("#2e7d32")))
                for saved in node.saved:
                    alarming = saved.status in ("changed", "freed")
                    lines.append(self._text(_saved_text(saved), size=8.5,
                                            color=QColor("#c62828") if alarming else QColor("#455a64")))
                width = max(item.boundingRect().width() for item in lines) + 16 * s
                height = sum(item.boundingRect().height() for item in lines) + 10 * s
                placed.append((node_index, lines, width, height))
            total = sum(p[2] for p in placed) + 18 * s * (len(placed) - 1)
            widest = max(widest, total)
            laid_out.append(placed)
        for placed in laid_out:
            total = sum(p[2] for p in placed) + 18 * s * (len(placed) - 1)
            x = (widest - total) / 2
            row_height = max(p[3] for p in placed)
            for node_index, lines, width, height in placed:
                rect = QRectF(x, y, width, height)
                boxes[node_index] = rect
                leaf = graph.nodes[node_index].leaf is not None
                path = QPainterPath()
                path.addRoundedRect(rect, 8 * s, 8 * s)
                fill = QColor("#e8f5e9") if leaf else QColor("#e3f2fd")
                if node_index == 0:
                    fill = QColor("#fff8e1")
                item = self.scene().addPath(path, QPen(QColor("#37474f"), 1.3), QBrush(fill))
                item.setZValue(-1)
                ty = y + 5 * s
                for line in lines:
                    line.setPos(x + 8 * s, ty)
                    ty += line.boundingRect().height()
                x += width + 18 * s
            y += row_height + row_gap
        pen = QPen(QColor("#546e7a"), 1.6)
        for a, b in graph.edges:
            start = QPointF(boxes[a].center().x(), boxes[a].bottom())
            end = QPointF(boxes[b].center().x(), boxes[b].top())
            self.scene().addLine(start.x(), start.y(), end.x(), end.y(), pen)
            self._arrow(start, end, pen)
        if graph.truncated:
            self._text(tr("(only the first {count} nodes are drawn)").format(count=len(graph.nodes)), 0, y,
                       size=9, color=MUTED)
        self.scene().setSceneRect(self.scene().itemsBoundingRect().adjusted(-10, -10, 10, 10))
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # Large graphs shrink to fit the panel; small ones keep their size.
        self.resetTransform()
        rect = self.scene().sceneRect()
        if rect.width() > self.viewport().width() or rect.height() > self.viewport().height():
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)

    def _arrow(self, start: QPointF, end: QPointF, pen: QPen) -> None:
        angle = math.atan2(end.y() - start.y(), end.x() - start.x())
        size = 8 * self.scale_factor
        left = QPointF(end.x() - size * math.cos(angle - 0.4), end.y() - size * math.sin(angle - 0.4))
        right = QPointF(end.x() - size * math.cos(angle + 0.4), end.y() - size * math.sin(angle + 0.4))
        self.scene().addPolygon(QPolygonF([end, left, right]), pen, QBrush(pen.color()))
