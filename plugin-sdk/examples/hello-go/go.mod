module example.com/hello-go

go 1.19
