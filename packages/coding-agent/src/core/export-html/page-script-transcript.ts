// Page script, part 2: the transcript. It shows a window of the branch's entries (those the filters and search
// let through) and grows it a chunk at a time as the reader nears either end, so opening or jumping anywhere in
// a 5,000-entry branch inserts a few dozen blocks, not thousands. Search terms are marked as a chunk is built; code
// blocks are highlighted when they come near the screen.
export const TRANSCRIPT_SCRIPT = String.raw`
var entriesElement = document.getElementById("entries");
var moreBefore = document.getElementById("more-before");
var moreAfter = document.getElementById("more-after");
var emptyNotice = document.getElementById("empty");
var shown = [];
var windowStart = 0;
var windowEnd = 0;
// The blocks come in gzipped segments of SEGMENT_SIZE nodes (see page-data.ts), inflated when first needed:
// opening the page unpacks the few segments its first chunk is in, not the whole session.
var segmentData = JSON.parse(document.getElementById(ENTRIES_ELEMENT_ID).textContent);
var segmentBlocks = new Array(segmentData.length);
var segmentLoads = new Array(segmentData.length);
var allBlocksLoad = null;
var inflatedSegments = 0;

function inflateSegment(segment) {
	if (!segmentLoads[segment]) {
		var binary = atob(segmentData[segment]);
		var bytes = new Uint8Array(binary.length);
		for (var k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
		var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
		segmentLoads[segment] = new Response(stream).text().then(function (text) {
			segmentBlocks[segment] = text.split(ENTRY_SEPARATOR);
			segmentData[segment] = null;
			inflatedSegments++;
		});
	}
	return segmentLoads[segment];
}

function blockOf(index) {
	var segment = segmentBlocks[Math.floor(index / SEGMENT_SIZE)];
	return segment ? segment[index % SEGMENT_SIZE] : undefined;
}

/** Runs then() once the blocks of these nodes are inflated: at once when they are, else after. */
function withBlocks(indices, then) {
	var loads = [];
	for (var k = 0; k < indices.length; k++) {
		var segment = Math.floor(indices[k] / SEGMENT_SIZE);
		if (!segmentBlocks[segment]) loads.push(inflateSegment(segment));
	}
	if (loads.length === 0) return then();
	Promise.all(loads).then(then, showLoadError);
}

function loadAllBlocks() {
	if (!allBlocksLoad) {
		var loads = [];
		for (var segment = 0; segment < segmentData.length; segment++) loads.push(inflateSegment(segment));
		allBlocksLoad = Promise.all(loads);
	}
	return allBlocksLoad;
}

function showLoadError(error) {
	emptyNotice.textContent = "This browser could not unpack the conversation (" + error + "). Open the file in a current browser.";
	emptyNotice.hidden = false;
	markReady();
}

function escapeText(text) {
	return String(text).replace(/[&<>"']/g, function (c) {
		return c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;";
	});
}

function plural(count, singular, pluralForm) {
	return count.toLocaleString("en-US") + " " + (count === 1 ? singular : pluralForm);
}

/** Where the branch forks (or the path stops above more entries): one button per way on. */
function forkBarHtml(index) {
	var list = childrenOf[index];
	var isPathEnd = state.path[state.path.length - 1] === index;
	if (list.length < 2 && !(isPathEnd && list.length > 0)) return "";
	var html = '<nav class="fork-bar" aria-label="Branches">' + BRANCH_ICON +
		'<span class="fork-title">' + plural(list.length, "branch continues", "branches continue") + " here:</span>";
	for (var j = 0; j < list.length; j++) {
		var child = list[j];
		var node = nodes[child];
		html += '<button type="button" class="branch-button' + (state.onPath[child] ? " current" : "") +
			'" data-node="' + child + '">' + escapeText(node.t + ": " + node.s) +
			' <span class="muted">(' + plural(subtreeSize[child], "entry", "entries") + ")</span></button>";
	}
	return html + "</nav>";
}

var LANGUAGE_ALIASES = { jsonc: "json", json5: "json", vue: "xml", svelte: "xml", proto: "protobuf",
	ex: "elixir", exs: "elixir", hs: "haskell", zsh: "bash", fish: "bash", env: "bash" };
var MAX_HIGHLIGHT_LENGTH = 100000;

function resolveLanguage(hljs, name) {
	var lower = name.toLowerCase();
	if (hljs.getLanguage(lower)) return lower;
	var alias = LANGUAGE_ALIASES[lower];
	return alias && hljs.getLanguage(alias) ? alias : undefined;
}

function highlightBlock(code) {
	if (typeof loadHighlighter !== "function") return;
	var hljs = loadHighlighter();
	var match = /(?:^|\s)language-(\S+)/.exec(code.className);
	var language = match ? resolveLanguage(hljs, match[1]) : undefined;
	var text = code.textContent;
	if (!language || text.length > MAX_HIGHLIGHT_LENGTH) return;
	try {
		// highlight.js escapes the text it wraps in its spans.
		code.innerHTML = hljs.highlight(text, { language: language, ignoreIllegals: true }).value;
		code.classList.add("hljs");
		if (state.terms.length > 0) markTerms(code, state.terms);
	} catch (error) {
		// Unhighlighted code is still readable.
	}
}

var codeObserver = new IntersectionObserver(function (records) {
	for (var j = 0; j < records.length; j++) {
		if (!records[j].isIntersecting) continue;
		codeObserver.unobserve(records[j].target);
		highlightBlock(records[j].target);
	}
}, { rootMargin: "600px 0px" });

/** Wraps each occurrence of a search term in <mark>. */
function markTerms(root, terms) {
	var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	var textNodes = [];
	for (var node = walker.nextNode(); node; node = walker.nextNode()) textNodes.push(node);
	for (var j = 0; j < textNodes.length; j++) {
		var textNode = textNodes[j];
		var text = textNode.data;
		var lower = text.toLowerCase();
		// Case folding that changes the length would misplace the marks.
		if (lower.length !== text.length) continue;
		var ranges = [];
		for (var t = 0; t < terms.length; t++) {
			for (var at = lower.indexOf(terms[t]); at >= 0; at = lower.indexOf(terms[t], at + terms[t].length)) {
				ranges.push([at, at + terms[t].length]);
			}
		}
		if (ranges.length === 0) continue;
		ranges.sort(function (a, b) { return a[0] - b[0]; });
		var fragment = document.createDocumentFragment();
		var position = 0;
		for (var r = 0; r < ranges.length; r++) {
			var start = Math.max(ranges[r][0], position);
			if (start >= ranges[r][1]) continue;
			if (start > position) fragment.appendChild(document.createTextNode(text.slice(position, start)));
			var mark = document.createElement("mark");
			mark.textContent = text.slice(start, ranges[r][1]);
			fragment.appendChild(mark);
			position = ranges[r][1];
		}
		if (position < text.length) fragment.appendChild(document.createTextNode(text.slice(position)));
		textNode.replaceWith(fragment);
	}
}

/** The blocks of shown[from..to), search terms marked, ready to insert. */
function buildEntries(from, to) {
	var parts = [];
	for (var k = from; k < to; k++) {
		var index = shown[k];
		parts.push('<div class="slot' + (index === state.target ? " target" : "") + '" data-node="' + index + '">' +
			blockOf(index) + forkBarHtml(index) + "</div>");
	}
	var template = document.createElement("template");
	template.innerHTML = parts.join("");
	if (state.terms.length > 0) markTerms(template.content, state.terms);
	return template.content;
}

/** Inserts shown[from..to) before the node "before" (null: at the end); their code is highlighted once near the screen. */
function insertEntries(from, to, before) {
	var fragment = buildEntries(from, to);
	var codes = fragment.querySelectorAll("code[class*='language-']");
	entriesElement.insertBefore(fragment, before);
	for (var j = 0; j < codes.length; j++) codeObserver.observe(codes[j]);
}

function computeShown() {
	shown = [];
	for (var k = 0; k < state.path.length; k++) {
		var index = state.path[k];
		if (nodes[index].b && passesFilters(index) && matchesSearch(index)) shown.push(index);
	}
}

function updateEdges() {
	moreBefore.hidden = windowStart === 0;
	moreBefore.textContent = "Show " + plural(windowStart, "earlier entry", "earlier entries");
	moreAfter.hidden = windowEnd >= shown.length;
	moreAfter.textContent = "Show " + plural(shown.length - windowEnd, "later entry", "later entries");
	emptyNotice.hidden = shown.length > 0;
	emptyNotice.textContent = state.path.length === 0 ? "This session has no entries." :
		"No entries of this branch match the search and filters.";
	// A fresh observation reports whether an edge is still near after the window grew.
	edgeObserver.unobserve(moreBefore);
	edgeObserver.unobserve(moreAfter);
	if (!moreBefore.hidden) edgeObserver.observe(moreBefore);
	if (!moreAfter.hidden) edgeObserver.observe(moreAfter);
}

// Each new window (navigation, search, filters) supersedes the ones still waiting for their blocks.
var windowGeneration = 0;
var growing = false;

/** Shows the window around shown[center] (from the start when center < 0), then runs done(). */
function showWindow(center, done) {
	var start = center < 0 ? 0 : Math.max(0, center - CHUNK_BEFORE_TARGET);
	var end = Math.min(shown.length, Math.max(start, center) + CHUNK);
	var generation = ++windowGeneration;
	growing = false;
	withBlocks(shown.slice(start, end), function () {
		if (generation !== windowGeneration) return;
		windowStart = start;
		windowEnd = end;
		entriesElement.replaceChildren();
		insertEntries(start, end, null);
		updateEdges();
		if (done) done();
		markReady();
	});
}

function extendAfter() {
	if (growing || windowEnd >= shown.length) return;
	var end = Math.min(shown.length, windowEnd + CHUNK);
	var generation = windowGeneration;
	growing = true;
	withBlocks(shown.slice(windowEnd, end), function () {
		if (generation !== windowGeneration) return;
		growing = false;
		insertEntries(windowEnd, end, null);
		windowEnd = end;
		updateEdges();
	});
}

function extendBefore() {
	if (growing || windowStart <= 0) return;
	var start = Math.max(0, windowStart - CHUNK);
	var generation = windowGeneration;
	growing = true;
	withBlocks(shown.slice(start, windowStart), function () {
		if (generation !== windowGeneration) return;
		growing = false;
		var anchor = entriesElement.firstElementChild;
		var anchorTop = anchor ? anchor.getBoundingClientRect().top : 0;
		insertEntries(start, windowStart, entriesElement.firstChild);
		windowStart = start;
		// Keep what the reader was looking at in place (the page turns off the browser's own scroll anchoring).
		if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - anchorTop);
		updateEdges();
	});
}

/** For printing: every shown entry, once all blocks are inflated (the page inflates them in the background). */
function showAllEntries() {
	if (inflatedSegments < segmentBlocks.length || growing) return;
	if (windowStart > 0) {
		var anchor = entriesElement.firstChild;
		insertEntries(0, windowStart, anchor);
		windowStart = 0;
	}
	if (windowEnd < shown.length) {
		insertEntries(windowEnd, shown.length, null);
		windowEnd = shown.length;
	}
	updateEdges();
}

var edgeObserver = new IntersectionObserver(function (records) {
	for (var j = 0; j < records.length; j++) {
		if (!records[j].isIntersecting) continue;
		if (records[j].target === moreAfter) extendAfter();
		else if (records[j].target === moreBefore) extendBefore();
	}
}, { rootMargin: "1200px 0px" });

function slotOf(index) {
	return entriesElement.querySelector('.slot[data-node="' + index + '"]');
}
`;
