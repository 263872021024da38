export * from "./captcha-machine";
