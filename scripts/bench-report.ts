import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** One measured figure of a benchmark, with the target it is judged against (if any). */
export interface BenchFigure {
	name: string;
	value: number;
	unit: string;
	/** e.g. { max: 1.3 } means the figure should be at most 1.3. */
	target?: { max?: number; min?: number };
	note?: string;
}

/** The middle value of a set of timings (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function meetsTarget(figure: BenchFigure): boolean | undefined {
	if (!figure.target) return undefined;
	if (figure.target.max !== undefined && figure.value > figure.target.max) return false;
	if (figure.target.min !== undefined && figure.value < figure.target.min) return false;
	return true;
}

function formatValue(value: number): string {
	if (Number.isInteger(value)) return String(value);
	return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

/**
 * Prints the figures of one benchmark as a table and appends them to bench-results/<suite>.jsonl,
 * so `pnpm bench` leaves a record that README numbers can be taken from.
 */
export function reportBenchmark(suite: string, figures: BenchFigure[]): void {
	const lines = figures.map((f) => {
		const verdict = meetsTarget(f);
		const target = f.target
			? ` (target ${f.target.max !== undefined ? `<= ${f.target.max}` : `>= ${f.target.min}`} ${f.unit}: ${verdict ? "met" : "MISSED"})`
			: "";
		return `  ${f.name}: ${formatValue(f.value)} ${f.unit}${target}${f.note ? ` — ${f.note}` : ""}`;
	});
	process.stdout.write(`\n[bench] ${suite}\n${lines.join("\n")}\n`);
	const dir = join(process.cwd(), "bench-results");
	mkdirSync(dir, { recursive: true });
	const record = { suite, at: new Date().toISOString(), node: process.version, figures };
	appendFileSync(join(dir, `${suite.replace(/[^a-z0-9_-]+/gi, "-")}.jsonl`), `${JSON.stringify(record)}\n`);
}
