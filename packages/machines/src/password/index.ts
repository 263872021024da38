export * from "./password-machines";
