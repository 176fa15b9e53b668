// The pending changesets, read as `changeset version` reads them, keep the release one command:
// every bump names a public package; before 1.0 none is `major` (changesets would turn it into 1.0.0;
// semver's 0.x marks a breaking change with a minor bump); and a package never released (0.0.0) gets
// at least a minor bump, so its first version is 0.1.0, not 0.0.1.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PUBLIC_PACKAGES, REPO_ROOT } from "../lib/pack.mjs";

const dir = join(REPO_ROOT, ".changeset");
const pending = readdirSync(dir)
  .filter((file) => file.endsWith(".md") && file !== "README.md")
  .map((file) => {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(dir, file), "utf8"))?.[1] ?? "";
    const bumps = [...front.matchAll(/^["']?([^"':]+)["']?\s*:\s*(\w+)\s*$/gm)].map(
      ([, name, bump]) => ({ name: name!, bump: bump! }),
    );
    return { file, bumps };
  });
const versions = new Map(
  PUBLIC_PACKAGES.map((pkg: string) => {
    const manifest = JSON.parse(
      readFileSync(join(REPO_ROOT, "packages", pkg, "package.json"), "utf8"),
    ) as { name: string; version: string };
    return [manifest.name, manifest.version] as const;
  }),
);

describe("pending changesets", () => {
  it("name public packages with patch, minor or major", () => {
    const wrong = pending.flatMap(({ file, bumps }) =>
      bumps
        .filter(
          ({ name, bump }) => !versions.has(name) || !["patch", "minor", "major"].includes(bump),
        )
        .map(({ name, bump }) => `${file}: ${name}: ${bump}`),
    );
    expect(wrong).toEqual([]);
    expect(existsSync(join(dir, "config.json"))).toBe(true);
  });

  it("bump no 0.x package to major (a breaking change before 1.0 is a minor changeset)", () => {
    const majors = pending.flatMap(({ file, bumps }) =>
      bumps
        .filter(({ name, bump }) => bump === "major" && versions.get(name)?.startsWith("0."))
        .map(({ name }) => `${file}: ${name}`),
    );
    expect(majors).toEqual([]);
  });

  it("take a never-released package (0.0.0) to 0.1.0: at least one minor bump each", () => {
    const unreleased = [...versions].filter(([, version]) => version === "0.0.0").map(([n]) => n);
    const minor = new Set(
      pending.flatMap(({ bumps }) => bumps.filter((b) => b.bump !== "patch").map((b) => b.name)),
    );
    expect(unreleased.filter((name) => !minor.has(name))).toEqual([]);
  });
});
