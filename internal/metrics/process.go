package metrics

// NewProcessCollector returns a collector of the process's figures, read
// when gathered, under the names Prometheus' process collector gives
// them: process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_virtual_memory_max_bytes,
// process_open_fds, process_max_fds, process_start_time_seconds, and
// process_network_receive_bytes_total and
// process_network_transmit_bytes_total (those of the process's network
// namespace). On Linux they are read from /proc/self; elsewhere only
// those the system calls give are written (on Unix the CPU time and the
// bounds on open files and on virtual memory), and a figure that cannot
// be read is left out.
func NewProcessCollector() Collector { return processCollector{} }

type processCollector struct{}

// The families of the process collector, by what they are.
const (
	procCPU      = "process_cpu_seconds_total"
	procResident = "process_resident_memory_bytes"
	procVirtual  = "process_virtual_memory_bytes"
	procVirtMax  = "process_virtual_memory_max_bytes"
	procOpenFDs  = "process_open_fds"
	procMaxFDs   = "process_max_fds"
	procStart    = "process_start_time_seconds"
	procReceived = "process_network_receive_bytes_total"
	procSent     = "process_network_transmit_bytes_total"
)

// processHelp returns the help of the process collector's family name.
func processHelp(name string) (string, Type) {
	switch name {
	case procCPU:
		return "Total user and system CPU time spent in seconds.", CounterType
	case procResident:
		return "Resident memory size in bytes.", GaugeType
	case procVirtual:
		return "Virtual memory size in bytes.", GaugeType
	case procVirtMax:
		return "Maximum amount of virtual memory available in bytes.", GaugeType
	case procOpenFDs:
		return "Number of open file descriptors.", GaugeType
	case procMaxFDs:
		return "Maximum number of open file descriptors.", GaugeType
	case procStart:
		return "Start time of the process since unix epoch in seconds.", GaugeType
	case procReceived:
		return "Number of bytes received by the process over the network.", CounterType
	case procSent:
		return "Number of bytes sent by the process over the network.", CounterType
	}
	return "", GaugeType
}

func (processCollector) names() ([]string, error) { return processNames(), nil }

func (processCollector) collect(fs []Family) []Family {
	for _, s := range readProcess() {
		help, typ := processHelp(s.name)
		fs = append(fs, Family{Name: s.name, Help: help, Type: typ, Series: []Series{{Value: s.value}}})
	}
	return fs
}

// processValue is a figure of the process, read.
type processValue struct {
	name  string
	value float64
}
