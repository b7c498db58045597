// Page script, part 1: the session tree built from the embedded nodes, and the sidebar's tree view. The view is
// virtual: only the rows in (and near) the visible part of the sidebar exist, so 5,000 entries cost no more than 50.
// Browser JavaScript kept as text (String.raw: no backticks or `${` inside); the parts share one function scope,
// see page-script.ts.
export const TREE_SCRIPT = String.raw`
var nodes = data.nodes;
var nodeCount = nodes.length;
var childrenOf = new Array(nodeCount);
var roots = [];
var indexById = new Map();
for (var i = 0; i < nodeCount; i++) childrenOf[i] = [];
for (i = 0; i < nodeCount; i++) {
	var parent = nodes[i].p;
	if (parent >= 0) childrenOf[parent].push(i);
	else roots.push(i);
	indexById.set(nodes[i].id, i);
}
// Parents come before their children, so one backward pass adds every subtree up.
var subtreeSize = new Int32Array(nodeCount);
for (i = nodeCount - 1; i >= 0; i--) {
	subtreeSize[i] += 1;
	if (nodes[i].p >= 0) subtreeSize[nodes[i].p] += subtreeSize[i];
}
var onOpeningPath = new Uint8Array(nodeCount);
for (i = data.leaf; i >= 0; i = nodes[i].p) onOpeningPath[i] = 1;

/** Of siblings, the one the tree keeps in line with its parent: the one on the opening path, else the newest. */
function preferredChild(list) {
	for (var j = 0; j < list.length; j++) if (onOpeningPath[list[j]]) return list[j];
	return list[list.length - 1];
}

// Rows in display order. At a fork the other branches come first, indented under a branch line, and the preferred
// branch continues below at the parent's level, so the opening path reads as one straight line.
var rowNode = [];
var rowGuide = [];
var rowOfNode = new Int32Array(nodeCount);
(function flattenTree() {
	var stack = [];
	function pushSiblings(list, guides) {
		if (list.length === 0) return;
		var main = preferredChild(list);
		stack.push([main, guides, guides]);
		for (var j = list.length - 1; j >= 0; j--) {
			if (list[j] !== main) stack.push([list[j], guides + "\u2502  ", guides + "\u251c\u2500 "]);
		}
	}
	pushSiblings(roots, "");
	while (stack.length > 0) {
		var item = stack.pop();
		rowOfNode[item[0]] = rowNode.length;
		rowNode.push(item[0]);
		rowGuide.push(item[2]);
		pushSiblings(childrenOf[item[0]], item[1]);
	}
})();

var treeElement = document.getElementById("tree");
var treeRowsElement = document.getElementById("tree-rows");
var visibleRows = [];
var treeFrame = 0;

function computeTreeRows() {
	visibleRows = [];
	for (var row = 0; row < rowNode.length; row++) {
		var node = rowNode[row];
		if (passesFilters(node) && matchesSearch(node)) visibleRows.push(row);
	}
}

function makeTreeRow(row, position) {
	var index = rowNode[row];
	var node = nodes[index];
	var element = document.createElement("div");
	var classes = "tree-row kind-" + node.k;
	if (state.onPath[index]) classes += " on-path";
	if (index === state.target) classes += " active";
	if (node.f & FLAG_ERROR) classes += " is-error";
	element.className = classes;
	element.style.top = position * ROW_HEIGHT + "px";
	element.setAttribute("data-node", String(index));
	element.setAttribute("role", "treeitem");
	element.title = node.t + ": " + node.s;
	var guide = document.createElement("span");
	guide.className = "tree-guide";
	guide.textContent = rowGuide[row];
	var dot = document.createElement("span");
	dot.className = "tree-dot";
	var title = document.createElement("span");
	title.className = "tree-title";
	title.textContent = node.t + ":";
	var text = document.createElement("span");
	text.className = "tree-text";
	text.textContent = " " + node.s;
	element.append(guide, dot, title, text);
	if (node.l !== undefined) {
		var label = document.createElement("span");
		label.className = "badge label";
		label.textContent = node.l;
		element.appendChild(label);
	}
	return element;
}

function renderTreeRows() {
	treeFrame = 0;
	treeRowsElement.style.height = visibleRows.length * ROW_HEIGHT + "px";
	var top = treeElement.scrollTop;
	var height = treeElement.clientHeight || window.innerHeight;
	var first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 10);
	var last = Math.min(visibleRows.length, Math.ceil((top + height) / ROW_HEIGHT) + 10);
	var fragment = document.createDocumentFragment();
	for (var position = first; position < last; position++) {
		fragment.appendChild(makeTreeRow(visibleRows[position], position));
	}
	treeRowsElement.replaceChildren(fragment);
}

function scheduleTreeRows() {
	if (treeFrame === 0) treeFrame = requestAnimationFrame(renderTreeRows);
}

/** Scrolls the sidebar so the active entry's row is visible (when the filters and search show it). */
function revealTreeRow(index) {
	var position = visibleRows.indexOf(rowOfNode[index]);
	if (position < 0) return;
	var top = position * ROW_HEIGHT;
	var height = treeElement.clientHeight;
	if (top < treeElement.scrollTop || top + ROW_HEIGHT > treeElement.scrollTop + height) {
		treeElement.scrollTop = Math.max(0, top - height / 2);
	}
}

treeElement.addEventListener("scroll", scheduleTreeRows, { passive: true });
window.addEventListener("resize", scheduleTreeRows);
`;
