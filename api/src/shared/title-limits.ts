/**
 * Longest conversation title, in characters: the server cuts and validates titles to it and the
 * widget's rename input stops there, so both sides read it from this one place.
 * @example title.slice(0, TITLE_MAX)
 */
export const TITLE_MAX = 64;
