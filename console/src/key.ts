/** The API key the page works with: kept for this tab only, so closing it signs out. */
const STORAGE_KEY = 'switchboard.apiKey';

export const storedKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const storeKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);
