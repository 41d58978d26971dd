import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * A throw-away certificate authority made with openssl in `dir`, for tests of TLS listeners:
 * `server()` issues a server certificate for 127.0.0.1 and localhost (IP and DNS SANs), `client(cn)`
 * a client certificate. P-256 keys, valid for a day; every openssl call is bounded.
 */
export interface TestCa {
  /** PEM file of the CA certificate (what a client's `cafile` names). */
  readonly cert: string
  readonly server: (name?: string) => CertificatePair
  readonly client: (commonName: string) => CertificatePair
}

export interface CertificatePair {
  readonly cert: string
  readonly key: string
}

const openssl = (args: ReadonlyArray<string>, cwd: string): void => {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"], timeout: 10_000 })
}

const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

export const makeTestCa = (dir: string): TestCa => {
  const caCert = join(dir, "ca.crt")
  const caKey = join(dir, "ca.key")
  openssl([
    "req", "-x509", ...newKey, "-keyout", caKey, "-out", caCert, "-days", "1", "-subj", "/CN=scorebridge test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"
  ], dir)

  const issue = (name: string, subject: string, extensions: ReadonlyArray<string>): CertificatePair => {
    const cert = join(dir, `${name}.crt`)
    const key = join(dir, `${name}.key`)
    const csr = join(dir, `${name}.csr`)
    const ext = join(dir, `${name}.ext`)
    writeFileSync(ext, [...extensions, ""].join("\n"))
    openssl(["req", ...newKey, "-keyout", key, "-out", csr, "-subj", subject], dir)
    openssl([
      "x509", "-req", "-in", csr, "-CA", caCert, "-CAkey", caKey, "-CAcreateserial", "-out", cert, "-days", "1", "-extfile", ext
    ], dir)
    return { cert, key }
  }

  return {
    cert: caCert,
    server: (name = "server") => issue(name, "/CN=127.0.0.1", [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=serverAuth",
      "subjectAltName=IP:127.0.0.1,DNS:localhost"
    ]),
    client: (commonName) => issue(`client-${commonName}`, `/CN=${commonName}`, [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=clientAuth"
    ])
  }
}
