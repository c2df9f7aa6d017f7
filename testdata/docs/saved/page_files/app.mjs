import { x } from "./util.mjs";
