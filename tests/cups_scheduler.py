"""A private CUPS scheduler for the printing tests: ``from cups_scheduler import Scheduler``.

It runs the system's own ``cupsd`` in the foreground with a configuration of
its own in a temporary folder, listening on a free loopback port only (no
domain socket, no browsing), so the machine's own CUPS is never touched.
Queues print to files and are stopped, so every job stays pending and its
attributes and spooled document can be read back over IPP and from the spool.
"""

from __future__ import annotations

import os
import plistlib
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

SBIN = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
PROGRAMS = {
    "cupsd": "cups",
    "lpadmin": "cups-client",
    "cupsdisable": "cups-client",
    "cupsreject": "cups-client",
    "lp": "cups-client",
    "lpstat": "cups-client",
    "lpoptions": "cups-client",
    "ipptool": "cups-ipp-utils",
}

PPD_HEAD = """*PPD-Adobe: "4.3"
*FormatVersion: "4.3"
*FileVersion: "1.0"
*LanguageVersion: English
*LanguageEncoding: ISOLatin1
*PCFileName: "{file}.PPD"
*Manufacturer: "sheetgen"
*Product: "({model})"
*ModelName: "{model}"
*ShortNickName: "{model}"
*NickName: "{model}"
*PSVersion: "(3010.000) 0"
*LanguageLevel: "3"
*ColorDevice: False
*DefaultColorSpace: Gray
*FileSystem: False
*Throughput: "1"
*LandscapeOrientation: Plus90
*TTRasterizer: Type42
*cupsFilter: "application/vnd.cups-pdf 0 -"
*OpenUI *PageSize/Media Size: PickOne
*OrderDependency: 10 AnySetup *PageSize
*DefaultPageSize: Letter
*PageSize Letter/US Letter: "<</PageSize[612 792]>>setpagedevice"
*PageSize A4/A4: "<</PageSize[595 842]>>setpagedevice"
*CloseUI: *PageSize
*OpenUI *PageRegion: PickOne
*OrderDependency: 10 AnySetup *PageRegion
*DefaultPageRegion: Letter
*PageRegion Letter/US Letter: "<</PageSize[612 792]>>setpagedevice"
*PageRegion A4/A4: "<</PageSize[595 842]>>setpagedevice"
*CloseUI: *PageRegion
*DefaultImageableArea: Letter
*ImageableArea Letter/US Letter: "18 18 594 774"
*ImageableArea A4/A4: "18 18 577 824"
*DefaultPaperDimension: Letter
*PaperDimension Letter/US Letter: "612 792"
*PaperDimension A4/A4: "595 842"
*DefaultFont: Courier
*Font Courier: Standard "(002.004S)" Standard ROM
"""
PPD_DUPLEX = """*OpenUI *Duplex/2-Sided Printing: PickOne
*OrderDependency: 10 AnySetup *Duplex
*DefaultDuplex: None
*Duplex None/Off: "<</Duplex false>>setpagedevice"
*Duplex DuplexNoTumble/Long Edge: "<</Duplex true/Tumble false>>setpagedevice"
*Duplex DuplexTumble/Short Edge: "<</Duplex true/Tumble true>>setpagedevice"
*CloseUI: *Duplex
"""

GET_JOBS = """{
  OPERATION Get-Jobs
  GROUP operation-attributes-tag
  ATTR charset attributes-charset utf-8
  ATTR naturalLanguage attributes-natural-language en
  ATTR uri printer-uri $uri
  ATTR name requesting-user-name $user
  ATTR keyword which-jobs all
  ATTR keyword requested-attributes all
  STATUS successful-ok
}
"""
GET_PRINTER = """{
  OPERATION Get-Printer-Attributes
  GROUP operation-attributes-tag
  ATTR charset attributes-charset utf-8
  ATTR naturalLanguage attributes-natural-language en
  ATTR uri printer-uri $uri
  ATTR keyword requested-attributes all
  STATUS successful-ok
}
"""


def missing_programs() -> list[str]:
    """The CUPS programs this machine lacks, each with its Debian package."""
    return [
        f"{program} ({package})"
        for program, package in PROGRAMS.items()
        if shutil.which(program, path=SBIN) is None
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Scheduler:
    """A cupsd of the tests' own: ``start()``, add queues, read jobs back, ``stop()``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.server = f"127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        # The clients read no client.conf or lpoptions of the machine's or the user's.
        self.client_root = folder / "client"
        self.home = folder / "home"

    @property
    def env(self) -> dict[str, str]:
        """The environment of a CUPS client that talks to this scheduler only."""
        env = {key: value for key, value in os.environ.items() if key not in ("PRINTER", "LPDEST")}
        env.update(
            CUPS_SERVER=self.server,
            CUPS_SERVERROOT=str(self.client_root),
            HOME=str(self.home),
            LC_ALL="C",
            LANG="C",
            PATH=SBIN,
        )
        return env

    def _write_configuration(self) -> None:
        root = self.folder
        for name in ("spool", "cache", "state", "tmp", "log", "models", "out", "client", "home"):
            (root / name).mkdir(parents=True, exist_ok=True)
        (root / "cupsd.conf").write_text(
            "\n".join(
                [
                    "LogLevel warn",
                    f"Listen 127.0.0.1:{self.port}",
                    "Browsing No",
                    "WebInterface No",
                    "DefaultAuthType None",
                    "PreserveJobHistory Yes",
                    "PreserveJobFiles Yes",
                    "<Location />",
                    "  Order allow,deny",
                    "  Allow all",
                    "</Location>",
                    "<Policy default>",
                    "  <Limit All>",
                    "    Order deny,allow",
                    "  </Limit>",
                    "</Policy>",
                    "",
                ]
            ),
            encoding="utf-8",
        )
        # cupsd runs its filters and backends as User; as root it refuses to use root.
        user = pwd.getpwuid(os.getuid()).pw_name
        runner = "lp" if os.getuid() == 0 else user
        (root / "cups-files.conf").write_text(
            "\n".join(
                [
                    f"ServerRoot {root}",
                    f"RequestRoot {root / 'spool'}",
                    f"CacheDir {root / 'cache'}",
                    f"StateDir {root / 'state'}",
                    f"TempDir {root / 'tmp'}",
                    f"ErrorLog {root / 'log' / 'error_log'}",
                    f"AccessLog {root / 'log' / 'access_log'}",
                    f"PageLog {root / 'log' / 'page_log'}",
                    f"Printcap {root / 'printcap'}",
                    "FileDevice Yes",
                    f"User {runner}",
                    f"SystemGroup {'root' if os.getuid() == 0 else user}",
                    "",
                ]
            ),
            encoding="utf-8",
        )

    def start(self) -> None:
        self._write_configuration()
        cupsd = shutil.which("cupsd", path=SBIN)
        assert cupsd is not None
        self.process = subprocess.Popen(
            [
                cupsd,
                "-f",
                "-c",
                str(self.folder / "cupsd.conf"),
                "-s",
                str(self.folder / "cups-files.conf"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / "log" / "cupsd.out").open("wb"),
            env=self.env,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cupsd stopped at once: {self.log()}")
            answer = self.run("lpstat", "-r", check=False)
            if answer.stdout.strip() == "scheduler is running":
                return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"cupsd did not answer on {self.server}: {self.log()}")

    def stop(self) -> None:
        """Stop cupsd and wait for it: no process of the tests' is left running."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log(self) -> str:
        texts = [
            path.read_text(errors="replace")
            for path in (self.folder / "log" / "cupsd.out", self.folder / "log" / "error_log")
            if path.exists()
        ]
        return "\n".join(texts).strip()

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        program = shutil.which(args[0], path=SBIN)
        assert program is not None, args[0]
        result = subprocess.run(
            [program, *args[1:]], capture_output=True, text=True, env=self.env, check=False
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)}: {result.stderr.strip()}")
        return result

    def add_queue(self, name: str, *, two_sided: bool) -> None:
        """A queue printing to a file, stopped so that its jobs stay to be read back."""
        ppd = self.folder / "models" / f"{name}.ppd"
        model = f"sheetgen test {'duplex' if two_sided else 'simplex'}"
        ppd.write_text(
            PPD_HEAD.format(file=name.upper()[:8], model=model) + (PPD_DUPLEX if two_sided else ""),
            encoding="latin-1",
        )
        output = self.folder / "out" / f"{name}.prn"
        # cupsd (2.4.x in Debian's current package) opens a file: device without O_CREAT:
        # the printer's output file has to be there already.
        output.touch()
        device = f"file://{output}"
        self.run("lpadmin", "-p", name, "-E", "-v", device, "-P", str(ppd))
        self.run("cupsdisable", name)

    def _ipp(self, printer: str, test: str) -> list[dict[str, Any]]:
        file = self.folder / "ipp.test"
        file.write_text(test, encoding="utf-8")
        uri = f"ipp://{self.server}/printers/{printer}"
        user = pwd.getpwuid(os.getuid()).pw_name
        ipptool = shutil.which("ipptool", path=SBIN) or "ipptool"
        result = subprocess.run(
            [ipptool, "-X", "-d", f"user={user}", uri, str(file)],
            capture_output=True,
            env=self.env,
            check=False,
        )
        answer = plistlib.loads(result.stdout)
        assert answer["Successful"], result.stdout.decode(errors="replace")
        groups: list[dict[str, Any]] = answer["Tests"][0]["ResponseAttributes"]
        return groups

    def jobs(self, printer: str) -> list[dict[str, Any]]:
        """Every job of ``printer`` with its IPP attributes, oldest first."""
        groups = [group for group in self._ipp(printer, GET_JOBS) if "job-id" in group]
        return sorted(groups, key=lambda group: int(group["job-id"]))

    def printer_attributes(self, printer: str) -> dict[str, Any]:
        groups = [group for group in self._ipp(printer, GET_PRINTER) if "printer-name" in group]
        return groups[0]

    def document(self, job_id: int) -> bytes:
        """The document CUPS spooled for job ``job_id``: exactly what lp sent it."""
        return (self.folder / "spool" / f"d{job_id:05d}-001").read_bytes()
