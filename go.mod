module github.com/dobble-dev/dobble

go 1.26.8
