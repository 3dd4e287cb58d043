#!/usr/bin/env python3
"""A static update feed server for tests and benchmarks, on loopback only.

Serves a folder as any static host or CDN does, with single byte ranges (206, Content-Range),
which Python's own http.server lacks. Prints "port N" once listening. With --log FILE, writes
one JSON line per answer: path, range asked, status, body bytes sent.

--mode makes it hostile to the files --target names (index.json, packages/, or both), for the
update client's bad-input tests. Every mode is bounded: nothing runs past --max-seconds.
  normal     serve the files
  dribble    send the headers, then one byte every --interval seconds
  endless    no Content-Length, zeros until --max-seconds
  oversize   send the file followed by --extra bytes of zeros, with a matching Content-Length
  redirect   302 to another path
  cut        the first answer longer than --cut bytes for each file stops there and closes
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--directory", required=True)
parser.add_argument("--log")
parser.add_argument("--mode", default="normal", choices=["normal", "dribble", "endless", "oversize", "redirect", "cut"])
parser.add_argument("--target", default="package", choices=["index", "package", "all"])
parser.add_argument("--interval", type=float, default=0.3)
parser.add_argument("--max-seconds", type=float, default=30)
parser.add_argument("--extra", type=int, default=1 << 20)
parser.add_argument("--cut", type=int, default=1000)
options = parser.parse_args()
root = os.path.realpath(options.directory)
log_lock = threading.Lock()
cut_done = set()


def targeted(path):
    is_index = path.endswith("index.json")
    return options.target == "all" or (options.target == "index") == is_index


class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status, sent):
        if not options.log:
            return
        with log_lock, open(options.log, "a") as log:
            log.write(json.dumps({"path": self.path, "range": self.headers.get("Range"), "status": status,
                                  "bytes": sent}) + "\n")

    def send(self, status, headers, body_chunks):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        sent = 0
        try:
            for chunk in body_chunks:
                self.wfile.write(chunk)
                self.wfile.flush()
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.record(status, sent)
        self.close_connection = True

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        file = os.path.realpath(os.path.join(root, path.lstrip("/")))
        if not file.startswith(root + os.sep) or not os.path.isfile(file):
            return self.send(404, [("Content-Length", "0")], [])
        with open(file, "rb") as handle:
            data = handle.read()
        mode = options.mode if targeted(path) else "normal"
        started = time.monotonic()
        if mode == "redirect":
            return self.send(302, [("Location", "/elsewhere" + path), ("Content-Length", "0")], [])
        if mode == "dribble":
            def drip():
                for byte in data:
                    if time.monotonic() - started > options.max_seconds:
                        return
                    time.sleep(options.interval)
                    yield bytes([byte])
            return self.send(200, [("Content-Length", str(len(data)))], drip())
        if mode == "endless":
            def zeros():
                while time.monotonic() - started < options.max_seconds:
                    yield bytes(64 * 1024)
            return self.send(200, [], zeros())
        if mode == "oversize":
            return self.send(200, [("Content-Length", str(len(data) + options.extra))], [data, bytes(options.extra)])
        status, body, headers = 200, data, [("Accept-Ranges", "bytes")]
        wanted = self.headers.get("Range")
        if wanted and wanted.startswith("bytes=") and "," not in wanted:
            first, _, last = wanted[len("bytes="):].partition("-")
            try:
                start = int(first)
                end = int(last) if last else len(data) - 1
            except ValueError:
                start, end = -1, -1
            if 0 <= start < len(data) and start <= end:
                end = min(end, len(data) - 1)
                status, body = 206, data[start:end + 1]
                headers.append(("Content-Range", f"bytes {start}-{end}/{len(data)}"))
            else:
                return self.send(416, [("Content-Range", f"bytes */{len(data)}"), ("Content-Length", "0")], [])
        if mode == "cut" and path not in cut_done and len(body) > options.cut:
            cut_done.add(path)
            headers.append(("Content-Length", str(len(body))))
            return self.send(status, headers, [body[:options.cut]])
        headers.append(("Content-Length", str(len(body))))
        self.send(status, headers, [body])


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
