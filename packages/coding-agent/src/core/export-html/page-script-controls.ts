// Page script, part 3: what the reader controls (navigation, search, filters, theme) and the start-up. When the
// first chunk is on screen the root element gets `data-ready` and the performance mark `export-ready`.
export const CONTROLS_SCRIPT = String.raw`
var state = {
	leaf: -1,
	target: -1,
	path: [],
	/** Position of each node on the path, -1 when it is not on it. */
	pathPosition: new Int32Array(nodeCount).fill(-1),
	onPath: new Uint8Array(nodeCount),
	terms: [],
	filters: { messages: true, tools: true, thinking: true, events: true },
};
var transcriptElement = document.getElementById("transcript");
var searchInput = document.getElementById("search");
var statusElement = document.getElementById("tree-status");
var themeButton = document.getElementById("theme-toggle");
var searchCache = new Array(nodeCount);

function passesFilters(index) {
	var node = nodes[index];
	var filters = state.filters;
	switch (node.k) {
		case "user":
		case "custom":
		case "summary":
			return filters.messages;
		case "assistant":
			return (filters.messages && ((node.f & (FLAG_TEXT | FLAG_ERROR)) !== 0 || (node.f & (FLAG_THINKING | FLAG_TOOL_CALLS)) === 0)) ||
				(filters.tools && (node.f & FLAG_TOOL_CALLS) !== 0) ||
				(filters.thinking && (node.f & FLAG_THINKING) !== 0);
		case "tool":
		case "bash":
			return filters.tools;
		default:
			return filters.events;
	}
}

var ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/** An entry's text for search (lower case), once its block is inflated; search waits for all of them. */
function searchText(index) {
	var text = searchCache[index];
	if (text === undefined) {
		var node = nodes[index];
		var body = (blockOf(index) || "").replace(/<[^>]*>/g, " ").replace(/&(amp|lt|gt|quot|#39);/g, function (_, name) {
			return ENTITIES[name];
		});
		text = (node.t + " " + node.s + " " + (node.l || "") + " " + body).replace(/\s+/g, " ").toLowerCase();
		searchCache[index] = text;
	}
	return text;
}

function matchesSearch(index) {
	if (state.terms.length === 0) return true;
	var text = searchText(index);
	for (var t = 0; t < state.terms.length; t++) if (text.indexOf(state.terms[t]) < 0) return false;
	return true;
}

/** Words, and "quoted phrases", lower-cased: an entry matches when it contains every one. */
function parseTerms(query) {
	var terms = [];
	var pattern = /"([^"]+)"|(\S+)/g;
	for (var match = pattern.exec(query); match; match = pattern.exec(query)) {
		var term = (match[1] || match[2] || "").replace(/\s+/g, " ").trim().toLowerCase();
		if (term) terms.push(term);
	}
	return terms;
}

function setPath(leaf) {
	state.leaf = leaf;
	state.onPath.fill(0);
	state.pathPosition.fill(-1);
	var path = [];
	for (var index = leaf; index >= 0; index = nodes[index].p) {
		path.push(index);
		state.onPath[index] = 1;
	}
	state.path = path.reverse();
	for (var k = 0; k < state.path.length; k++) state.pathPosition[state.path[k]] = k;
}

/** The leaf a click on an entry opens: the shown branch when it holds the entry, else the preferred way down. */
function leafThrough(index) {
	if (state.onPath[index]) return state.leaf;
	while (childrenOf[index].length > 0) index = preferredChild(childrenOf[index]);
	return index;
}

/** Position in shown of the target, or of the first shown entry after it on the path; -1 for the start. */
function centerFor(index) {
	if (index < 0) return -1;
	var position = shown.indexOf(index);
	if (position >= 0) return position;
	var pathPosition = state.pathPosition[index];
	for (var k = 0; k < shown.length; k++) if (state.pathPosition[shown[k]] > pathPosition) return k;
	return -1;
}

function updateStatus() {
	var matches = visibleRows.length;
	if (state.terms.length > 0) {
		statusElement.textContent = plural(matches, "match", "matches") + " in the session, " +
			shown.length.toLocaleString("en-US") + " on this branch";
	} else {
		statusElement.textContent = plural(matches, "entry", "entries") + " of " + nodeCount.toLocaleString("en-US") +
			" shown";
	}
}

function updateBranchStats() {
	var counts = { user: 0, assistant: 0, tool: 0 };
	var totals = [0, 0, 0, 0, 0];
	for (var k = 0; k < state.path.length; k++) {
		var node = nodes[state.path[k]];
		if (counts[node.k] !== undefined) counts[node.k]++;
		if (node.u) for (var u = 0; u < 5; u++) totals[u] += node.u[u];
	}
	var stats = document.getElementById("branch-stats");
	if (stats) {
		stats.textContent = plural(state.path.length, "entry", "entries") + ": " + plural(counts.user, "user message", "user messages") +
			", " + plural(counts.assistant, "response", "responses") + ", " + plural(counts.tool, "tool result", "tool results");
	}
	var cells = document.querySelectorAll("[data-branch-total]");
	var values = [counts.assistant, totals[0], totals[1], totals[2], totals[3], totals[0] + totals[1] + totals[2] + totals[3]];
	for (var c = 0; c < cells.length; c++) {
		var field = cells[c].getAttribute("data-branch-total");
		cells[c].textContent = field === "cost" ? "$" + totals[4].toFixed(4) : values[Number(field)].toLocaleString("en-US");
	}
}

function scrollToTarget() {
	var slot = state.target >= 0 ? slotOf(state.target) : null;
	if (slot) slot.scrollIntoView({ block: "start" });
	else window.scrollTo(0, 0);
}

/** Re-applies filters and search. The transcript keeps its target in view when it can, else starts at the top. */
function refresh(keepTarget) {
	computeTreeRows();
	computeShown();
	var center = keepTarget ? centerFor(state.target) : -1;
	renderTreeRows();
	updateStatus();
	showWindow(center, function () {
		if (center >= 0) scrollToTarget();
		else window.scrollTo(0, 0);
	});
}

/** Shows the branch through an entry and scrolls to it; done() runs once it is on screen. */
function navigate(index, done) {
	setPath(leafThrough(index));
	state.target = index;
	computeShown();
	updateBranchStats();
	revealTreeRow(index);
	renderTreeRows();
	updateStatus();
	showWindow(centerFor(index), function () {
		scrollToTarget();
		if (done) done();
	});
	try {
		history.replaceState(null, "", "#entry-" + encodeURIComponent(nodes[index].id));
	} catch (error) {
		// Some viewers forbid changing the address; navigation still works.
	}
}

function setFilter(name, on) {
	state.filters[name] = on;
	transcriptElement.classList.toggle("hide-" + name, !on);
	refresh(true);
}

var THEME_KEY = "agent-export-theme";

function effectiveTheme() {
	var chosen = document.documentElement.getAttribute("data-theme");
	if (chosen === "light" || chosen === "dark") return chosen;
	return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function updateThemeButton() {
	var next = effectiveTheme() === "dark" ? "light" : "dark";
	themeButton.textContent = next === "dark" ? "Dark" : "Light";
	themeButton.setAttribute("aria-label", "Switch to the " + next + " theme");
}

themeButton.addEventListener("click", function () {
	var next = effectiveTheme() === "dark" ? "light" : "dark";
	document.documentElement.setAttribute("data-theme", next);
	try {
		localStorage.setItem(THEME_KEY, next);
	} catch (error) {
		// Storage may be unavailable for local files; the choice then lasts for this visit.
	}
	updateThemeButton();
});
window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", updateThemeButton);

/** Searching needs every entry's text: the first search waits for all blocks to be inflated. */
function applySearch(keepTarget) {
	var query = searchInput.value;
	var terms = parseTerms(query);
	if (terms.length === 0) {
		state.terms = [];
		refresh(keepTarget);
		return;
	}
	if (inflatedSegments < segmentBlocks.length) statusElement.textContent = "Searching\u2026";
	loadAllBlocks().then(function () {
		if (searchInput.value !== query) return;
		state.terms = terms;
		refresh(keepTarget);
	}, showLoadError);
}

var searchFrame = 0;
searchInput.addEventListener("input", function () {
	if (searchFrame !== 0) return;
	searchFrame = requestAnimationFrame(function () {
		searchFrame = 0;
		applySearch(false);
	});
});

document.addEventListener("keydown", function (event) {
	var typing = event.target instanceof HTMLElement && event.target.closest("input, textarea");
	if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
		event.preventDefault();
		searchInput.focus();
	} else if (event.key === "Escape" && event.target === searchInput && searchInput.value !== "") {
		searchInput.value = "";
		applySearch(true);
	}
});

document.addEventListener("click", function (event) {
	var element = event.target instanceof Element ? event.target : null;
	if (!element) return;
	var fold = element.closest(".fold-toggle");
	if (fold) {
		if (!fold.hasAttribute("data-label")) fold.setAttribute("data-label", fold.textContent);
		var open = fold.parentElement.classList.toggle("open");
		fold.textContent = open ? "Show less" : fold.getAttribute("data-label");
		return;
	}
	var filter = element.closest("[data-filter]");
	if (filter) {
		var on = filter.getAttribute("aria-pressed") !== "true";
		filter.setAttribute("aria-pressed", String(on));
		setFilter(filter.getAttribute("data-filter"), on);
		return;
	}
	var jump = element.closest("[data-node]");
	if (jump && (jump.classList.contains("tree-row") || jump.classList.contains("branch-button"))) {
		navigate(Number(jump.getAttribute("data-node")));
		return;
	}
	if (element.closest("#more-before")) return extendBefore();
	if (element.closest("#more-after")) return extendAfter();
	if (element.closest("#jump-leaf") && data.leaf >= 0) return navigate(data.leaf);
	var link = element.closest('a[href^="#entry-"]');
	if (link) {
		var linked = indexById.get(link.getAttribute("href").slice(7));
		if (linked !== undefined) {
			event.preventDefault();
			navigate(linked);
		}
	}
});

window.addEventListener("beforeprint", showAllEntries);

function markReady() {
	if (document.documentElement.hasAttribute("data-ready")) return;
	document.documentElement.setAttribute("data-ready", "");
	performance.mark("export-ready");
}

/** After the first chunk: inflate the remaining segments one at a time while the page is idle. */
function inflateInBackground() {
	var idle = function (callback) {
		if (window.requestIdleCallback) window.requestIdleCallback(callback);
		else setTimeout(callback, 1);
	};
	var next = 0;
	(function step() {
		while (next < segmentBlocks.length && segmentLoads[next]) next++;
		if (next >= segmentBlocks.length) return;
		inflateSegment(next).then(function () { idle(step); });
	})();
}

(function start() {
	var opening = data.leaf >= 0 ? data.leaf : rowNode.length > 0 ? rowNode[rowNode.length - 1] : -1;
	if (opening >= 0) setPath(opening);
	updateThemeButton();
	updateBranchStats();
	var hashTarget;
	try {
		if (location.hash.indexOf("#entry-") === 0) hashTarget = indexById.get(decodeURIComponent(location.hash.slice(7)));
	} catch (error) {
		hashTarget = undefined;
	}
	var opened = function () {
		markReady();
		inflateInBackground();
		// Text typed into the search box before the page was ready.
		if (searchInput.value) applySearch(true);
	};
	computeTreeRows();
	if (hashTarget !== undefined) {
		navigate(hashTarget, opened);
	} else {
		renderTreeRows();
		updateStatus();
		computeShown();
		showWindow(-1, opened);
	}
})();
`;
