// A self-signed certificate for `localhost` and 127.0.0.1 (valid until 2126), made once with
// `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=localhost
// -addext subjectAltName=DNS:localhost,IP:127.0.0.1`. For TLS servers in tests only; clients trust it through `ca`.

export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUP81RD0lgiUHJ8gD/dL0F9KBCVyEwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNjE1MTQzMVoYDzIxMjYxMTAy
MTUxNDMxWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQoZl+eJ87qArZeiPAH3Y5t0tZawGbpDsZTLZv74qtZDs/0gL2D96Uu
TFTOzPnQQa1TRtJkPcJXxxvJJdU9WPoRo28wbTAdBgNVHQ4EFgQUuVm6Qv6FbZ3v
AyO01Eg9oa8zOTkwHwYDVR0jBBgwFoAUuVm6Qv6FbZ3vAyO01Eg9oa8zOTkwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIhAKCDd3dRg7NTdOERKmCdBr+QgSib6Ir3KC00yIsf9HbZAiAH
Jd9hy9+eACi/oeIbgsLl5yKQrjOWpCLzfYHV2ed6pg==
-----END CERTIFICATE-----
`;

export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg1+52n7PlA9uU+O6Z
fp6BHEg3AM2abkJ6to3gMO7CgPehRANCAAQoZl+eJ87qArZeiPAH3Y5t0tZawGbp
DsZTLZv74qtZDs/0gL2D96UuTFTOzPnQQa1TRtJkPcJXxxvJJdU9WPoR
-----END PRIVATE KEY-----
`;
