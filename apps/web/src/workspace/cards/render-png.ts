import { toPng } from "html-to-image";

/** html-to-image behind the card screenshot (a chunk of its own, loaded when a screenshot is asked for). */
export const renderPng = toPng;
