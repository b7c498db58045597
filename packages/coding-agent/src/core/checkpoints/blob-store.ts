// The checkpoint store of one session: file contents by SHA-256, beside the session file (docs/checkpoints.md).
// A blob is written to a temp file and renamed into place, so a crash leaves a temp file (removed by a later
// open, once an hour old) and never a half-written blob under its name; every read checks the content against its name, so a
// damaged blob (a power loss on a file system that reorders writes) is never used either. Many contents at
// once (the baseline of a working tree) go into one pack file with an index, written the same way. A pack is the
// scratch of the process that wrote it: handed on to that process's next session, or deleted when the session
// ends, keeping as loose blobs what the session's entries refer to. A pack whose writer ended without that (killed,
// or the machine went down) is taken over by the next process on the same machine that opens the store.
import { createHash, randomBytes } from "node:crypto";
import {
	closeSync,
	existsSync,
	linkSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	renameSync,
	rmdirSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { basename, join } from "node:path";
import { OWN_START_TIME, processEnded } from "../process-identity.js";

export function hashContent(bytes: Uint8Array): string {
	return createHash("sha256").update(bytes).digest("hex");
}

const HASH_PATTERN = /^[0-9a-f]{64}$/;

interface PackLocation {
	pack: string;
	offset: number;
	size: number;
}

/** The outcome of storing a content: its hash, or that the store has reached its size limit. */
export type PutResult = { hash: string } | { full: true };

/** Adds many contents to one pack file; nothing is visible until `commit()`. */
export interface PackWriter {
	/** False when the store (with what this pack holds so far) would pass its limit: the content is not added. */
	add(hash: string, bytes: Uint8Array): boolean;
	commit(): void;
	abort(): void;
}

/** A pack being written: it can be abandoned, or told to commit into another store. */
interface PendingPack {
	moveTo(store: BlobStore): void;
	abort(): void;
}

/** The index file of a pack file. */
function indexOf(pack: string): string {
	return `${pack.slice(0, -".pack".length)}.idx`;
}

/** A temp file or an uncommitted pack not written for this long is a crash's leftover. */
const STALE_AFTER_MS = 60 * 60 * 1000;

/** The names in `dir`; none when it cannot be read (missing). */
function listNames(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

/** Who committed a pack, in its index. */
interface PackAuthor {
	host: string;
	pid: number;
	/** The process's start time, where it can be read (a pid alone may be reused). */
	startTime?: string;
}

const THIS_PROCESS: PackAuthor = {
	host: hostname(),
	pid: process.pid,
	...(OWN_START_TIME !== undefined ? { startTime: OWN_START_TIME } : {}),
};

/**
 * Whether the process that committed a pack has ended. Only a writer on this machine can be checked; one that
 * cannot be told ended (another machine, no writer recorded, a live process under that pid) is taken to be alive.
 */
function writerEnded(writer: Partial<PackAuthor> | undefined): boolean {
	if (writer?.host !== THIS_PROCESS.host || typeof writer.pid !== "number") return false;
	return processEnded(writer.pid, typeof writer.startTime === "string" ? writer.startTime : undefined);
}

function isMissing(error: unknown): boolean {
	return (error as NodeJS.ErrnoException).code === "ENOENT";
}

export class BlobStore {
	private readonly looseDir: string;
	private readonly packDir: string;
	private readonly tempDir: string;
	/** Every blob this store holds (loose ones are found on disk the first time they are asked for). */
	private readonly packed = new Map<string, PackLocation>();
	private readonly loose = new Set<string>();
	/** Packs this object committed: the working tree's baseline, scratch once the session ends (`releasePacks`). */
	private readonly ownPacks = new Set<string>();
	/** The packs being written into this store. */
	private readonly writing = new Set<PendingPack>();
	private bytes = 0;
	private opened = false;
	private refused = false;

	constructor(
		readonly dir: string,
		/** The store's size limit in bytes. */
		readonly maxBytes: number,
	) {
		this.looseDir = join(dir, "blobs");
		this.packDir = join(dir, "packs");
		this.tempDir = join(dir, "tmp");
	}

	/** Whether a content was refused because of the size limit (since this process opened the store). */
	get hasRefused(): boolean {
		return this.refused;
	}

	/** Bytes held (loose blobs and packs). */
	get usedBytes(): number {
		this.open();
		return this.bytes;
	}

	has(hash: string): boolean {
		this.open();
		return this.packed.has(hash) || this.loose.has(hash);
	}

	/** Stores `bytes` (once: a content already held is not written again). */
	put(bytes: Uint8Array): PutResult {
		const hash = hashContent(bytes);
		if (this.holdsLastingly(hash)) return { hash };
		if (this.bytes + bytes.length > this.maxBytes) {
			this.refused = true;
			return { full: true };
		}
		this.writeLoose(hash, bytes);
		return { hash };
	}

	/** The content of `hash`, checked against it; undefined when missing or damaged. */
	read(hash: string): Buffer | undefined {
		if (!this.has(hash)) return undefined;
		let bytes: Buffer | undefined;
		const location = this.packed.get(hash);
		try {
			bytes = location ? this.readPacked(location) : readFileSync(this.loosePath(hash));
		} catch {
			// The process that wrote the pack ended its session and kept this content as a loose blob.
			if (!location) return undefined;
			try {
				bytes = readFileSync(this.loosePath(hash));
			} catch {
				return undefined;
			}
		}
		return hashContent(bytes) === hash ? bytes : undefined;
	}

	/**
	 * Copies blobs another store holds and this one lacks (a forked session's references, the baseline of a
	 * working tree read into another session's store). Loose blobs are hard-linked when possible.
	 * Returns the hashes that could not be copied (missing, damaged, or this store is full).
	 */
	importFrom(other: BlobStore, hashes: Iterable<string>): string[] {
		const failed: string[] = [];
		for (const hash of hashes) {
			if (this.holdsLastingly(hash)) continue;
			if (other.loose.has(hash) && this.linkLoose(other, hash)) continue;
			const bytes = other.read(hash);
			if (!bytes || "full" in this.put(bytes)) failed.push(hash);
		}
		return failed;
	}

	beginPack(): PackWriter {
		this.open();
		mkdirSync(this.tempDir, { recursive: true });
		const name = `pack-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
		const tempPath = join(this.tempDir, `${name}.pack.tmp`);
		const fd = openSync(tempPath, "wx");
		const entries = new Map<string, [number, number]>();
		let offset = 0;
		let closed = false;
		// The store the pack is committed into: the next session's once this one's packs are handed over.
		let owner: BlobStore = this;
		// Once handed over, this store may be left holding nothing: it goes.
		const leave = () => {
			if (owner !== this && this.packed.size === 0 && this.loose.size === 0) this.removeIfEmpty();
		};
		const pending: PendingPack = {
			moveTo: (store) => {
				owner = store;
			},
			abort: () => {
				close();
				rmSync(tempPath, { force: true });
				leave();
			},
		};
		const close = () => {
			if (closed) return;
			closed = true;
			closeSync(fd);
			owner.writing.delete(pending);
		};
		this.writing.add(pending);
		return {
			add: (hash, bytes) => {
				if (owner.holdsLastingly(hash) || entries.has(hash)) return true;
				if (owner.bytes + offset + bytes.length > owner.maxBytes) {
					owner.refused = true;
					return false;
				}
				let written = 0;
				while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
				entries.set(hash, [offset, bytes.length]);
				offset += bytes.length;
				return true;
			},
			commit: () => {
				close();
				if (entries.size === 0) {
					rmSync(tempPath, { force: true });
					return;
				}
				if (owner === this) {
					this.commitPack(name, tempPath, entries, offset);
					return;
				}
				// Handed over while being written: it goes where the index that reads it went (here only when it cannot
				// be moved: another file system).
				try {
					owner.commitPack(name, tempPath, entries, offset);
				} catch {
					this.commitPack(name, tempPath, entries, offset);
					return;
				}
				leave();
			},
			abort: pending.abort,
		};
	}

	/** Moves the written pack `tempPath` (in any store's temp directory) into this store, then its index. */
	private commitPack(name: string, tempPath: string, entries: Map<string, [number, number]>, size: number): void {
		mkdirSync(this.packDir, { recursive: true });
		const packPath = join(this.packDir, `${name}.pack`);
		renameSync(tempPath, packPath);
		// The index is what makes a pack usable: written only once the pack is in place.
		this.writeIndex(name, Object.fromEntries(entries));
		for (const [hash, [entryOffset, entrySize]] of entries) {
			this.packed.set(hash, { pack: packPath, offset: entryOffset, size: entrySize });
		}
		this.ownPacks.add(packPath);
		this.bytes += size;
	}

	/** Writes the index of pack `name`, naming this process its writer (a temp file renamed over any older one). */
	private writeIndex(name: string, blobs: Record<string, [number, number]>): void {
		mkdirSync(this.tempDir, { recursive: true });
		const indexTemp = join(this.tempDir, `${name}.idx.tmp`);
		writeFileSync(indexTemp, JSON.stringify({ format: 1, writer: THIS_PROCESS, blobs }));
		renameSync(indexTemp, join(this.packDir, `${name}.idx`));
	}

	/**
	 * Deletes the packs this object committed or is writing, after copying out as loose blobs the contents of the
	 * committed ones that `keep` names. A pack whose kept contents cannot all be copied (a read or write error)
	 * stays. A store left holding nothing is removed.
	 */
	releasePacks(keep: ReadonlySet<string>): void {
		// A baseline still being written (the session ended first) is abandoned now, not when its walk next runs.
		for (const pending of this.writing) pending.abort();
		for (const pack of this.ownPacks) {
			const contents = this.keepLoose(pack, keep);
			if (!contents) continue;
			const size = statSync(pack, { throwIfNoEntry: false })?.size ?? 0;
			// The index first: a pack left without one (a crash in between) is removed when the store is next opened.
			rmSync(indexOf(pack), { force: true });
			rmSync(pack, { force: true });
			this.forgetPack(pack, contents, size);
		}
		if (this.opened && this.packed.size === 0 && this.loose.size === 0) this.removeIfEmpty();
	}

	/**
	 * Moves the packs this object committed into `to` (the next session's store, where the index that reads them
	 * goes on), after copying out as loose blobs the contents of them that `keep` names. A pack that cannot be
	 * moved (another file system) stays here. A pack still being written is committed into `to`.
	 */
	handOverPacks(to: BlobStore, keep: ReadonlySet<string>): void {
		to.open();
		const writing = [...this.writing];
		this.writing.clear();
		for (const pending of writing) {
			pending.moveTo(to);
			to.writing.add(pending);
		}
		for (const pack of this.ownPacks) {
			const contents = this.keepLoose(pack, keep);
			if (!contents) continue;
			const size = statSync(pack, { throwIfNoEntry: false })?.size ?? 0;
			const target = join(to.packDir, basename(pack));
			try {
				mkdirSync(to.packDir, { recursive: true });
				renameSync(pack, target);
			} catch {
				continue;
			}
			try {
				renameSync(indexOf(pack), indexOf(target));
			} catch {
				// Without its index the pack is unusable there: the index reads from it no more.
				rmSync(target, { force: true });
				this.forgetPack(pack, contents, size);
				continue;
			}
			this.forgetPack(pack, contents, size);
			for (const [hash, location] of contents) to.packed.set(hash, { ...location, pack: target });
			to.ownPacks.add(target);
			to.bytes += size;
		}
		if (this.packed.size === 0 && this.loose.size === 0) this.removeIfEmpty();
	}

	/** Copies the contents of `pack` that `keep` names out as loose blobs; its contents, or undefined on an error. */
	private keepLoose(pack: string, keep: ReadonlySet<string>): [string, PackLocation][] | undefined {
		const contents = [...this.packed].filter(([, location]) => location.pack === pack);
		try {
			for (const [hash, location] of contents) {
				if (!keep.has(hash) || this.loose.has(hash)) continue;
				const bytes = this.readPacked(location);
				// A damaged content is unusable anyway: it goes with the pack.
				if (hashContent(bytes) === hash) this.writeLoose(hash, bytes);
			}
		} catch {
			return undefined;
		}
		return contents;
	}

	private forgetPack(pack: string, contents: [string, PackLocation][], size: number): void {
		for (const [hash] of contents) this.packed.delete(hash);
		this.ownPacks.delete(pack);
		this.bytes -= size;
	}

	/**
	 * Held as a loose blob or in a pack of this object's. Another process's pack is its scratch, gone when its
	 * session ends (keeping only what that session refers to): a content only there is stored again.
	 */
	holdsLastingly(hash: string): boolean {
		this.open();
		if (this.loose.has(hash)) return true;
		const location = this.packed.get(hash);
		return location !== undefined && this.ownPacks.has(location.pack);
	}

	/**
	 * Removes the store's directories that are empty on disk, itself last: what another process wrote meanwhile
	 * (a loose blob) keeps them.
	 */
	private removeIfEmpty(): void {
		const prefixes = listNames(this.looseDir);
		for (const dir of [
			...prefixes.map((prefix) => join(this.looseDir, prefix)),
			this.looseDir,
			this.packDir,
			this.tempDir,
			this.dir,
		]) {
			try {
				rmdirSync(dir);
			} catch {
				// Missing, or not empty.
			}
		}
	}

	/** Deletes the whole store. */
	remove(): void {
		rmSync(this.dir, { recursive: true, force: true });
		this.packed.clear();
		this.loose.clear();
		this.bytes = 0;
		this.opened = false;
	}

	private loosePath(hash: string): string {
		return join(this.looseDir, hash.slice(0, 2), hash.slice(2));
	}

	private writeLoose(hash: string, bytes: Uint8Array): void {
		mkdirSync(this.tempDir, { recursive: true });
		const temp = join(this.tempDir, `${hash}.${randomBytes(4).toString("hex")}.tmp`);
		writeFileSync(temp, bytes, { flag: "wx" });
		const target = this.loosePath(hash);
		try {
			renameSync(temp, target);
		} catch (error) {
			if (!isMissing(error)) {
				rmSync(temp, { force: true });
				throw error;
			}
			mkdirSync(join(this.looseDir, hash.slice(0, 2)), { recursive: true });
			renameSync(temp, target);
		}
		this.loose.add(hash);
		this.bytes += bytes.length;
	}

	private linkLoose(other: BlobStore, hash: string): boolean {
		const target = this.loosePath(hash);
		try {
			mkdirSync(join(this.looseDir, hash.slice(0, 2)), { recursive: true });
			linkSync(other.loosePath(hash), target);
		} catch {
			return false;
		}
		const size = statSync(target).size;
		if (this.bytes + size > this.maxBytes) {
			rmSync(target, { force: true });
			return false;
		}
		this.loose.add(hash);
		this.bytes += size;
		return true;
	}

	private readPacked(location: PackLocation): Buffer {
		const fd = openSync(location.pack, "r");
		try {
			const bytes = Buffer.allocUnsafe(location.size);
			let read = 0;
			while (read < location.size) {
				const n = readSync(fd, bytes, read, location.size - read, location.offset + read);
				if (n === 0) throw new Error(`pack ${location.pack} is shorter than its index says`);
				read += n;
			}
			return bytes;
		} finally {
			closeSync(fd);
		}
	}

	/** Reads what the directory holds, once: packs with an index, loose blobs; leftovers of crashes go. */
	private open(): void {
		if (this.opened) return;
		this.opened = true;
		this.removeStale(this.tempDir, listNames(this.tempDir));
		try {
			rmdirSync(this.tempDir);
		} catch {
			// Missing, or another write is in progress.
		}
		this.loadPacks();
		this.loadLoose();
	}

	/**
	 * Removes the files `names` of `dir` that nobody has written for `STALE_AFTER_MS`: leftovers of a crash. A
	 * younger one may be another process's write in progress (a session forked from a live one opens that
	 * session's store).
	 */
	private removeStale(dir: string, names: readonly string[]): void {
		const now = Date.now();
		for (const name of names) {
			const path = join(dir, name);
			const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
			if (written !== undefined && now - written > STALE_AFTER_MS) rmSync(path, { recursive: true, force: true });
		}
	}

	private loadPacks(): void {
		const names = listNames(this.packDir);
		const indexed = new Set(names.filter((name) => name.endsWith(".idx")).map((name) => name.slice(0, -4)));
		// A pack without its index was never committed: the process died between the two renames (or, when it is
		// recent, is between them now). It is not read, and removed once stale.
		this.removeStale(
			this.packDir,
			names.filter((name) => name.endsWith(".pack") && !indexed.has(name.slice(0, -5))),
		);
		for (const name of names) {
			if (!name.endsWith(".pack")) continue;
			const base = name.slice(0, -5);
			const packPath = join(this.packDir, name);
			if (!indexed.has(base)) continue;
			try {
				const index = JSON.parse(readFileSync(join(this.packDir, `${base}.idx`), "utf8")) as {
					writer?: Partial<PackAuthor>;
					blobs?: Record<string, [number, number]>;
				};
				const packSize = statSync(packPath).size;
				for (const [hash, [offset, size]] of Object.entries(index.blobs ?? {})) {
					if (!HASH_PATTERN.test(hash) || offset + size > packSize) continue;
					this.packed.set(hash, { pack: packPath, offset, size });
				}
				this.bytes += packSize;
				// Its writer will never release it: this process does, as its own, when its session ends. The index names
				// this process from now on, so another one opening the store meanwhile leaves it alone.
				if (writerEnded(index.writer)) {
					try {
						this.writeIndex(base, index.blobs ?? {});
						this.ownPacks.add(packPath);
					} catch {
						// A store this process cannot write to: the pack stays as it is.
					}
				}
			} catch {
				// A damaged index: its blobs are unknown to this store (reads of them report them missing).
			}
		}
	}

	private loadLoose(): void {
		for (const prefix of listNames(this.looseDir)) {
			for (const name of listNames(join(this.looseDir, prefix))) {
				const hash = prefix + name;
				if (!HASH_PATTERN.test(hash)) continue;
				try {
					this.bytes += statSync(join(this.looseDir, prefix, name)).size;
					this.loose.add(hash);
				} catch {
					// vanished
				}
			}
		}
	}
}

/** Whether a store directory exists for `dir` (without creating or reading it). */
export function storeExists(dir: string): boolean {
	return existsSync(dir);
}
