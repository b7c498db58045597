// docs/models.md "Errors": a models.json error rejects the whole file, and the interactive UI shows it as
// `models.json error: …`. The registry reads the file at start-up and again on /model, /scoped-models, /reload
// and /logout; each read that finds an error other than the one last shown shows it, so an unchanged broken
// file does not repeat itself on every /model.

export const MODELS_JSON_ERROR_PREFIX = "models.json error: ";

export function modelsJsonErrorText(error: string): string {
	return `${MODELS_JSON_ERROR_PREFIX}${error}`;
}

/** Remembers the models.json error last shown, so each new or changed error is shown once. */
export class ModelsJsonErrorTracker {
	private shown: string | undefined;

	/** The notice for the registry's current error; undefined when there is none or it is the one last shown. */
	noticeFor(error: string | undefined): string | undefined {
		const isNew = error !== undefined && error !== this.shown;
		// A fixed file forgets its error: breaking it the same way again is news.
		this.shown = error;
		return isNew ? modelsJsonErrorText(error) : undefined;
	}
}
