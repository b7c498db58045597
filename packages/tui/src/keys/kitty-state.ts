/**
 * Whether the terminal has the Kitty keyboard protocol enabled. The terminal implementation sets it
 * after negotiating the protocol; components may consult it (e.g. to show the right key hints).
 */
let kittyProtocolActive = false;

export function setKittyProtocolActive(active: boolean): void {
	kittyProtocolActive = active;
}

export function isKittyProtocolActive(): boolean {
	return kittyProtocolActive;
}
